package dev.faro.bench.zerosided;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.shuffle.endpoint.WaitLoop;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The global sequencer of the DFI-like ordered multicast (DFI's replicate flow with global ordering): one 8-byte
 * counter in the registered memory of a sequencer node, and per source an RC queue pair to it; a source takes the
 * next global sequence number with one remote FETCH_ADD(+1) before it multicasts a segment, and stamps the segment
 * with it. The sequencer node's CPU does nothing (the atomic is one-sided).
 *
 * <pre>
 * counter region (sequencer node, REMOTE_ATOMIC): 0 +---------------------+ 8
 *                                                   | next sequence (LE)  |  FETCH_ADD by every source
 *                                                   +---------------------+
 * result region (each source, LOCAL_WRITE):      0 +---------------------+ 8
 *                                                   | the fetched value   |  landed by the fabric, read after the
 *                                                   +---------------------+  completion
 * </pre>
 *
 * <p>Data path: {@link #next} is allocation-free; each source's state is confined to that source's thread.
 */
final class FetchAddSequencer implements AutoCloseable {

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final Duration STALL = Duration.ofSeconds(30);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Source[] sources;
    private final WaitLoop waits = new WaitLoop(STALL);

    /**
     * @param sequencer the fabric node that holds the counter
     * @param sourceFabrics each source's fabric node (may be the sequencer's)
     */
    FetchAddSequencer(Fabric sequencer, Fabric[] sourceFabrics) {
        try {
            MemoryRegion counter = track(sequencer.register(Long.BYTES, EnumSet.of(Access.REMOTE_ATOMIC)));
            byte[] counterKey = counter.remoteKey().toBytes();
            sources = new Source[sourceFabrics.length];
            for (int s = 0; s < sourceFabrics.length; s++) {
                Fabric fabric = sourceFabrics[s];
                CompletionQueue queue = track(fabric.createCompletionQueue(4));
                RcQueuePair pair = track(fabric.createRcQueuePair(QueuePairConfig.of(queue, 1, 1)));
                CompletionQueue peerQueue = track(sequencer.createCompletionQueue(4));
                RcQueuePair peer = track(sequencer.createRcQueuePair(QueuePairConfig.of(peerQueue, 1, 1)));
                pair.connect(fabric.importAddress(peer.address().toBytes()));
                peer.connect(sequencer.importAddress(pair.address().toBytes()));
                MemoryRegion result = track(fabric.register(Long.BYTES, EnumSet.of(Access.LOCAL_WRITE)));
                sources[s] = new Source(pair, queue, result, fabric.importRemoteKey(counterKey));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    /** The next global sequence number (0, 1, 2...), for source {@code source}; on that source's thread only. */
    long next(int source) {
        Source state = sources[source];
        state.request
                .clear()
                .requestId(state.fetches)
                .opcode(Opcode.FETCH_ADD)
                .signaled(true)
                .add(1)
                .local(state.result, 0, Long.BYTES)
                .remote(state.counter, 0);
        state.pair.postSend(state.request);
        if (waits.await(state.step, 0, null) == WaitLoop.STALLED) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT, "the sequencer's FETCH_ADD did not complete: " + waits.stall());
        }
        state.fetches++;
        return state.result.segment().get(WORD, 0);
    }

    /** FETCH_ADDs source {@code source} made. */
    long fetches(int source) {
        return sources[source].fetches;
    }

    @Override
    public void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                // closing a queue pair or region of a fabric that is closing anyway; nothing is left to free
            }
        }
    }

    /** One source's queue pair, completion queue and result word. Source thread only. */
    private static final class Source {
        final RcQueuePair pair;
        final CompletionQueue queue;
        final MemoryRegion result;
        final RemoteKey counter;
        final WorkRequest request = new WorkRequest();
        final WorkCompletion[] completions = WorkCompletion.array(1);
        final WaitLoop.Step step = this::poll;
        long fetches;

        Source(RcQueuePair pair, CompletionQueue queue, MemoryRegion result, RemoteKey counter) {
            this.pair = pair;
            this.queue = queue;
            this.result = result;
            this.counter = counter;
        }

        private int poll(int unused) {
            if (queue.poll(completions) == 0) {
                return WaitLoop.IDLE;
            }
            if (!completions[0].status().isSuccess()) {
                throw new FaroException(
                        FaroException.Category.NETWORK, "the sequencer's FETCH_ADD failed: " + completions[0]);
            }
            return WaitLoop.DONE;
        }
    }
}
