package dev.faro.middleware;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * The one network thread of a process (DAIS16 §3.2). It polls the completion queue of all connections and sleeps
 * when nothing happens, and handles what follows a completion:
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
 * notifications).
 *
 * <p>How it sleeps: the paper's thread blocks on a completion channel and costs nothing while idle. A fabric between
 * processes without an interrupt (shm) has only polling, and its own {@code await} spins, yields and parks up to 50
 * µs: on a machine with fewer cores than threads the yields of the network threads took the cores the workers
 * needed. So this thread polls, spins briefly, then parks with growing pauses up to {@value #MAX_PARK_MICROS} µs; a
 * worker that posts a WRITE wakes it at once ({@link PeerConnection#postWrite}), so its completion is handled without
 * delay. A notification from a peer process waits at most one pause. A dead peer needs no heartbeat of its own here: the fabric fails the queue pair of a peer
 * unresponsive for its peer timeout ({@link dev.faro.fabric.FabricConfig#peerTimeout()}), which flushes the posted
 * receives into error completions even when no data moves. An error completion fails the middleware (first error
 * wins): every worker's next poll that finds no row, take or flush, and any send that waits for ring space, throws it.
 *
 * <p>Data path: allocation-free after construction.
 */
final class NetworkThread implements Runnable {

    private static final int SPINS = 32;
    private static final long MIN_PARK_MICROS = 8;
    private static final long MAX_PARK_MICROS = 100;

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
            int idle = 0;
            while (running) {
                int count = completionQueue.poll(completions);
                if (count == 0) {
                    if (idle < SPINS) {
                        Thread.onSpinWait();
                    } else {
                        long pause = Math.min(MAX_PARK_MICROS, MIN_PARK_MICROS << (idle - SPINS));
                        LockSupport.parkNanos(this, pause * 1000);
                    }
                    idle = Math.min(idle + 1, SPINS + 8);
                } else {
                    idle = 0;
                }
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
