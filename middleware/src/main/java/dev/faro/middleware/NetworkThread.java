package dev.faro.middleware;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The one network thread of a process (DAIS16 §3.2). It waits on the completion queue of all connections (event
 * mode, so it sleeps when nothing happens) and handles what follows a completion:
 *
 * <ul>
 *   <li>a WRITE completed: free the local ring space, wake the sending worker, queue a WRITTEN notification, and
 *       post the next WRITE of that ring if one is due (deferral: the worker does not wait for the first);
 *   <li>a WRITTEN notification arrived: publish the written position of the incoming ring and wake its reader —
 *       that is the list of rings with data, so no worker polls rings it has no news of;
 *   <li>a READ notification arrived: record the freed remote space and post a WRITE that waited for it.
 * </ul>
 *
 * After each batch of completions it sends the queued WRITTEN entries, up to eight per SEND (batched
 * notifications). A dead peer needs no heartbeat of its own here: the fabric fails the queue pair of a peer
 * unresponsive for its peer timeout ({@link dev.faro.fabric.FabricConfig#peerTimeout()}), which flushes the posted
 * receives into error completions even when no data moves. An error completion fails the middleware (first error
 * wins): every worker's next poll that finds no row, take or flush, and any send that waits for ring space, throws it.
 *
 * <p>Data path: allocation-free after construction.
 */
final class NetworkThread implements Runnable {

    private static final long AWAIT_MILLIS = 20;

    private final ShuffleMiddleware middleware;
    private final CompletionQueue completionQueue;
    private final PeerConnection[] peers;
    private final WorkCompletion[] completions;
    private volatile boolean running = true;

    /** Approximate counters (network thread writes). */
    long notificationsReceived;

    NetworkThread(ShuffleMiddleware middleware, CompletionQueue completionQueue, PeerConnection[] peers) {
        this.middleware = middleware;
        this.completionQueue = completionQueue;
        this.peers = peers;
        this.completions = WorkCompletion.array(256);
    }

    void stop() {
        running = false;
    }

    @Override
    public void run() {
        try {
            while (running) {
                int count = completionQueue.await(completions, AWAIT_MILLIS, TimeUnit.MILLISECONDS);
                for (int i = 0; i < count && running; i++) {
                    onCompletion(completions[i]);
                }
                for (PeerConnection peer : peers) {
                    if (peer != null) {
                        sendAnnouncements(peer);
                    }
                }
            }
        } catch (FaroException e) {
            if (running) {
                middleware.fail(new FaroException(
                        FaroException.Category.NETWORK, "middleware network thread failed: " + e.getMessage(), e));
            }
        } catch (Throwable e) {
            middleware.fail(
                    new FaroException(FaroException.Category.NETWORK, "middleware network thread failed: " + e, e));
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    private void onCompletion(WorkCompletion completion) {
        long requestId = completion.requestId();
        int process = PeerConnection.processOf(requestId);
        PeerConnection peer = process < peers.length ? peers[process] : null;
        if (!completion.status().isSuccess()) {
            if (running) {
                middleware.fail(new FaroException(
                        FaroException.Category.NETWORK,
                        "peer process " + process + " failed: a " + completion.opcode() + " completed with "
                                + completion.status() + " (the peer died or closed mid-shuffle)"));
            }
            return;
        }
        if (peer == null) {
            return;
        }
        if (PeerConnection.isWrite(requestId)) {
            OutgoingRing ring = peer.outgoing[PeerConnection.indexOf(requestId)];
            ring.onWriteCompleted();
            if (!ring.announcePending) {
                ring.announcePending = true;
                peer.announce[peer.announceCount++] = ring.index;
            }
            middleware.writerSlot(ring).wake();
            ring.tryPost();
        } else if (PeerConnection.isNotification(requestId)) {
            peer.onNotificationCompleted();
        } else if (PeerConnection.isReceive(requestId) && completion.opcode() == Opcode.RECEIVE) {
            int slot = PeerConnection.indexOf(requestId);
            onMessage(
                    peer,
                    peer.receives.segment(),
                    (long) slot * NotificationDescriptor.MESSAGE_LENGTH,
                    completion.byteLength());
            peer.postReceive(slot);
        }
    }

    private void onMessage(PeerConnection peer, MemorySegment receives, long base, int length) {
        notificationsReceived++;
        for (long entry = base; entry < base + length; entry += NotificationDescriptor.ENTRY_LENGTH) {
            int type = NotificationDescriptor.type(receives, entry);
            int ring = NotificationDescriptor.ring(receives, entry);
            long position = NotificationDescriptor.position(receives, entry);
            if (type == NotificationDescriptor.WRITTEN) {
                middleware.onWritten(peer.process, ring, position);
            } else if (type == NotificationDescriptor.READ) {
                OutgoingRing outgoing = peer.outgoing[ring];
                outgoing.onRead(position);
                outgoing.tryPost();
                middleware.writerSlot(outgoing).wake();
            }
        }
    }

    private void sendAnnouncements(PeerConnection peer) {
        int sentUpTo = 0;
        while (sentUpTo < peer.announceCount) {
            int batch = Math.min(NotificationDescriptor.MAX_ENTRIES, peer.announceCount - sentUpTo);
            for (int i = 0; i < batch; i++) {
                OutgoingRing ring = peer.outgoing[peer.announce[sentUpTo + i]];
                NotificationDescriptor.put(
                        peer.message, i, NotificationDescriptor.WRITTEN, ring.index, ring.completedPosition());
            }
            if (!peer.trySendNotification(peer.request, peer.messagePrefixes[batch])) {
                break; // too many outstanding: the rest stays queued for the next round
            }
            for (int i = 0; i < batch; i++) {
                peer.outgoing[peer.announce[sentUpTo + i]].announcePending = false;
            }
            peer.notificationMessagesSent++;
            peer.notificationEntriesSent += batch;
            sentUpTo += batch;
        }
        if (sentUpTo > 0) {
            System.arraycopy(peer.announce, sentUpTo, peer.announce, 0, peer.announceCount - sentUpTo);
            peer.announceCount -= sentUpTo;
        }
    }
}
