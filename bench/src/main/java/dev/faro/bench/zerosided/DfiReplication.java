package dev.faro.bench.zerosided;

import dev.faro.fabric.Fabric;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.write.SealDescriptor;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The DFI-like multicast of V8 (SIGMOD24 Fig. 12's baseline: DFI's replicate flow, without and with global ordering)
 * on {@link DfiNodes}: P sources and C targets, each a fabric node of its own; a source fills a segment with
 * {@link #ITEMS_PER_SEGMENT} items (as the switch's batches in V8) and multicasts it to every target, one one-sided
 * WRITE per target on the source's thread (this fabric has no multicast). The first payload word of a segment is its
 * stamp:
 *
 * <ul>
 *   <li>unordered: 0; a target takes segments as they arrive (each source's in order, sources interleaved as the
 *       polls find them, so targets may disagree on the interleaving);
 *   <li>ordered: a global sequence number taken from a {@link FetchAddSequencer} (a remote FETCH_ADD on node 0's
 *       counter) just before the multicast; a target delivers segments strictly by stamp, holding a source's segments
 *       until every smaller stamp was delivered (each source's stamps rise in its posting order, so the next stamp is
 *       always at the head of some source's held segments or still on its way).
 * </ul>
 *
 * A target never needs more held segments of a source than the source owns at it, so holding cannot deadlock: the
 * smallest undelivered stamp's source has every earlier segment delivered and released everywhere.
 *
 * <p>Coordination code around data-path loops (allocation-free per item).
 */
final class DfiReplication {

    static final String UNORDERED = "DFI-like multicast";
    static final String ORDERED = "DFI-like multicast, ordered";

    /** Items per segment: the switch's batch in V8 (32 items of 1 KiB). */
    static final int ITEMS_PER_SEGMENT = 32;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int STAMP_BYTES = Long.BYTES;

    private DfiReplication() {}

    /** Bytes of a segment of {@link #ITEMS_PER_SEGMENT} items of {@code itemBytes}: header, stamp, items, footer. */
    static int segmentBytes(int itemBytes) {
        int bytes = MessageHeaderDescriptor.LENGTH
                + STAMP_BYTES
                + ITEMS_PER_SEGMENT * itemBytes
                + SealDescriptor.SEAL_LENGTH;
        return (bytes + 7) & ~7;
    }

    /** One run of {@code producers} × {@code perProducer} items to {@code consumers}; the consumers' sequences. */
    static ReplicatedSequence[] run(
            int producers, int consumers, int perProducer, int itemBytes, boolean ordered, long[] startNs)
            throws Exception {
        int nodes = producers + consumers;
        int[] targets = new int[consumers];
        for (int c = 0; c < consumers; c++) {
            targets[c] = producers + c;
        }
        TransmissionGroups groups = TransmissionGroups.of(nodes, List.of(targets));
        long total = (long) producers * perProducer;
        ReplicatedSequence[] sequences = new ReplicatedSequence[consumers];
        for (int c = 0; c < consumers; c++) {
            sequences[c] = new ReplicatedSequence(producers, total);
        }
        try (DfiNodes dfi = DfiNodes.open("dfi-multicast", nodes, DfiNodes.config(segmentBytes(itemBytes)), groups);
                FetchAddSequencer sequencer =
                        ordered ? new FetchAddSequencer(dfi.fabric(0), sources(dfi, producers)) : null) {
            ShuffleThreads threads = new ShuffleThreads();
            startNs[0] = System.nanoTime();
            threads.start("dfi-target", consumers, c -> {
                ReceiveEndpoint endpoint = dfi.endpoints(producers + c).receiver(0);
                if (ordered) {
                    consumeOrdered(endpoint, producers, itemBytes, sequences[c]);
                } else {
                    consume(endpoint, itemBytes, sequences[c]);
                }
                sequences[c].finish();
            });
            threads.start(
                    "dfi-source",
                    producers,
                    p -> produce(dfi.endpoints(p).sender(0), p, perProducer, itemBytes, targets, sequencer));
            // every node's send endpoint ends its stream, the targets' (which send nothing) too
            threads.start(
                    "dfi-idle-source",
                    consumers,
                    c -> end(dfi.endpoints(producers + c).sender(0), targets));
            try {
                threads.join();
            } catch (Exception e) {
                dfi.abandon();
                throw e;
            }
        }
        return sequences;
    }

    private static Fabric[] sources(DfiNodes dfi, int producers) {
        Fabric[] fabrics = new Fabric[producers];
        for (int p = 0; p < producers; p++) {
            fabrics[p] = dfi.fabric(p);
        }
        return fabrics;
    }

    private static void produce(
            SendEndpoint endpoint,
            int producer,
            int perProducer,
            int itemBytes,
            int[] targets,
            FetchAddSequencer sequencer) {
        for (int i = 0; i < perProducer; i += ITEMS_PER_SEGMENT) {
            ShuffleBuffer segment = endpoint.acquire();
            MemorySegment payload = segment.payload();
            int items = Math.min(ITEMS_PER_SEGMENT, perProducer - i);
            for (int j = 0; j < items; j++) {
                payload.set(WORD, STAMP_BYTES + (long) j * itemBytes, ReplicatedSequence.id(producer, i + j));
            }
            payload.set(WORD, 0, sequencer == null ? 0 : sequencer.next(producer));
            segment.payloadLength(STAMP_BYTES + items * itemBytes);
            endpoint.putData(segment, targets, StreamState.MORE_DATA);
        }
        end(endpoint, targets);
    }

    /** An empty DEPLETED segment to every target. */
    private static void end(SendEndpoint endpoint, int[] targets) {
        ShuffleBuffer last = endpoint.acquire();
        last.payloadLength(0);
        endpoint.putData(last, targets, StreamState.DEPLETED);
    }

    private static void consume(ReceiveEndpoint endpoint, int itemBytes, ReplicatedSequence sequence) {
        ShuffleBuffer segment;
        while ((segment = endpoint.getData()) != null) {
            deliver(segment, itemBytes, sequence);
            endpoint.release(segment);
        }
    }

    private static void consumeOrdered(
            ReceiveEndpoint endpoint, int producers, int itemBytes, ReplicatedSequence sequence) {
        int depth = DfiNodes.SEGMENTS_PER_TARGET;
        ShuffleBuffer[][] held = new ShuffleBuffer[producers][depth];
        int[] heads = new int[producers];
        int[] sizes = new int[producers];
        long next = 0;
        boolean ended = false;
        while (true) {
            int source = -1;
            for (int p = 0; p < producers && source < 0; p++) {
                if (sizes[p] > 0 && held[p][heads[p]].payload().get(WORD, 0) == next) {
                    source = p;
                }
            }
            if (source >= 0) {
                ShuffleBuffer segment = held[source][heads[source]];
                held[source][heads[source]] = null;
                heads[source] = (heads[source] + 1) % depth;
                sizes[source]--;
                deliver(segment, itemBytes, sequence);
                endpoint.release(segment);
                next++;
                continue;
            }
            if (ended) {
                for (int size : sizes) {
                    if (size > 0) {
                        sequence.fail("segments held after the end of the stream, stamp " + next + " never came");
                    }
                }
                return;
            }
            ShuffleBuffer segment = endpoint.getData();
            if (segment == null) {
                ended = true;
            } else if (segment.payloadLength() == 0) {
                endpoint.release(segment);
            } else {
                int p = segment.sourceNode();
                if (sizes[p] == depth) {
                    throw new IllegalStateException("source " + p + " has more segments out than it owns here");
                }
                held[p][(heads[p] + sizes[p]) % depth] = segment;
                sizes[p]++;
            }
        }
    }

    private static void deliver(ShuffleBuffer segment, int itemBytes, ReplicatedSequence sequence) {
        MemorySegment payload = segment.payload();
        int items = Math.max(0, segment.payloadLength() - STAMP_BYTES) / itemBytes;
        for (int j = 0; j < items; j++) {
            sequence.accept(payload.get(WORD, STAMP_BYTES + (long) j * itemBytes));
        }
    }
}
