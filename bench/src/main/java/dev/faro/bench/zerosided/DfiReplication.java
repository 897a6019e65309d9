package dev.faro.bench.zerosided;

import dev.faro.fabric.Fabric;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
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
 * on {@link DfiNodes}: P sources and C targets, each a fabric node of its own; a source fills a segment with items and
 * multicasts it to every target on its own thread, as one message per target (this fabric has no multicast) over a
 * {@link Channel}: one-sided WRITEs (DFI's shuffle channel) or two-sided UD SENDs of at most 4 KiB (what DFI's
 * replicate flow uses, through the NIC's multicast). The first payload word of a segment is its stamp:
 *
 * <ul>
 *   <li>unordered: 0; a target takes segments as they arrive (each source's in order, sources interleaved as the
 *       polls find them, so targets may disagree on the interleaving);
 *   <li>ordered: a global sequence number taken from a {@link FetchAddSequencer} (a remote FETCH_ADD on node 0's
 *       counter) just before the multicast; a target delivers segments strictly by stamp, holding those that came
 *       early in a window indexed by stamp.
 * </ul>
 *
 * The hold window cannot overflow or deadlock: every stamp above the next one to deliver belongs to a segment held
 * here, in flight here (both within the source's credit at this target) or fetched and not yet posted (one per source),
 * so at most P × (credit + 1) stamps are pending; and the smallest pending stamp's source has every earlier segment
 * delivered and released at every target, so it can post it.
 *
 * <p>Coordination code around data-path loops (allocation-free per item).
 */
final class DfiReplication {

    /** How a source's segment reaches each target. */
    enum Channel {
        /** One one-sided WRITE per target into the target's segments (TODS19 MEMQ/WR): 32 items per segment. */
        WRITE("WRITE", EndpointDesign.MEMQ_WR),
        /** One two-sided UD SEND per target, at most 4 KiB (TODS19 MESQ/SR): 3 items of 1 KiB per segment. */
        UD_SEND("UD SEND", EndpointDesign.MESQ_SR);

        private final String label;
        private final EndpointDesign design;

        Channel(String label, EndpointDesign design) {
            this.label = label;
            this.design = design;
        }

        /** The series name of a run over this channel. */
        String series(boolean ordered) {
            return "DFI-like multicast (" + label + ")" + (ordered ? ", ordered" : "");
        }

        /** Items of {@code itemBytes} per segment. */
        int itemsPerSegment(int itemBytes) {
            return this == WRITE
                    ? WRITE_ITEMS_PER_SEGMENT
                    : (EndpointConfig.DEFAULT_UD_BUFFER_BYTES - MessageHeaderDescriptor.LENGTH - STAMP_BYTES)
                            / itemBytes;
        }

        /**
         * The endpoints of a run with items of {@code itemBytes}: WRITE segments of 32 items, {@link
         * DfiNodes#SEGMENTS_PER_TARGET} per target; UD segments of 4 KiB, as many per target as hold the same bytes (so
         * that both channels have as much in flight per target).
         */
        EndpointConfig config(int itemBytes) {
            int writeBytes = (MessageHeaderDescriptor.LENGTH
                            + STAMP_BYTES
                            + WRITE_ITEMS_PER_SEGMENT * itemBytes
                            + SealDescriptor.SEAL_LENGTH
                            + 7)
                    & ~7;
            if (this == WRITE) {
                return DfiNodes.config(design, writeBytes);
            }
            int udBytes = EndpointConfig.DEFAULT_UD_BUFFER_BYTES;
            int segments = DfiNodes.SEGMENTS_PER_TARGET * Math.ceilDiv(writeBytes, udBytes);
            return DfiNodes.config(design, udBytes).withBuffersPerPeer(segments);
        }
    }

    /** What a run gave: each target's sequence, when the run started, and the sequencer's FETCH_ADDs. */
    record Run(ReplicatedSequence[] targets, long startNs, long fetchAdds) {}

    /** Items per WRITE segment: the switch's batch in V8 (32 items of 1 KiB). */
    static final int WRITE_ITEMS_PER_SEGMENT = 32;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int STAMP_BYTES = Long.BYTES;

    private DfiReplication() {}

    /** One run of {@code producers} × {@code perProducer} items to {@code consumers}. */
    static Run run(Channel channel, int producers, int consumers, int perProducer, int itemBytes, boolean ordered)
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
        int itemsPerSegment = channel.itemsPerSegment(itemBytes);
        EndpointConfig config = channel.config(itemBytes);
        int window = producers * (config.buffersPerPeer() + 1) + 1;
        try (DfiNodes dfi = DfiNodes.open("dfi-multicast", nodes, config, groups);
                FetchAddSequencer sequencer =
                        ordered ? new FetchAddSequencer(dfi.fabric(0), sources(dfi, producers)) : null) {
            ShuffleThreads threads = new ShuffleThreads();
            long startNs = System.nanoTime();
            threads.start("dfi-target", consumers, c -> {
                ReceiveEndpoint endpoint = dfi.endpoints(producers + c).receiver(0);
                if (ordered) {
                    consumeOrdered(endpoint, window, itemBytes, sequences[c]);
                } else {
                    consume(endpoint, itemBytes, sequences[c]);
                }
                sequences[c].finish();
            });
            threads.start(
                    "dfi-source",
                    producers,
                    p -> produce(
                            dfi.endpoints(p).sender(0),
                            p,
                            perProducer,
                            itemBytes,
                            itemsPerSegment,
                            targets,
                            sequencer));
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
            long fetchAdds = 0;
            for (int p = 0; ordered && p < producers; p++) {
                fetchAdds += sequencer.fetches(p);
            }
            return new Run(sequences, startNs, fetchAdds);
        }
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
            int itemsPerSegment,
            int[] targets,
            FetchAddSequencer sequencer) {
        for (int i = 0; i < perProducer; i += itemsPerSegment) {
            ShuffleBuffer segment = endpoint.acquire();
            MemorySegment payload = segment.payload();
            int items = Math.min(itemsPerSegment, perProducer - i);
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

    /** Delivers segments by stamp; {@code window} bounds the stamps pending at once (see the class comment). */
    private static void consumeOrdered(
            ReceiveEndpoint endpoint, int window, int itemBytes, ReplicatedSequence sequence) {
        ShuffleBuffer[] held = new ShuffleBuffer[window];
        int heldCount = 0;
        long next = 0;
        while (true) {
            ShuffleBuffer ready = held[(int) (next % window)];
            if (ready != null) {
                held[(int) (next % window)] = null;
                heldCount--;
                deliver(ready, itemBytes, sequence);
                endpoint.release(ready);
                next++;
                continue;
            }
            ShuffleBuffer segment = endpoint.getData();
            if (segment == null) {
                if (heldCount > 0) {
                    sequence.fail(
                            heldCount + " segments held after the end of the stream; stamp " + next + " never came");
                }
                return;
            }
            if (segment.payloadLength() == 0) {
                endpoint.release(segment);
                continue;
            }
            long stamp = segment.payload().get(WORD, 0);
            if (stamp < next || stamp - next >= window || held[(int) (stamp % window)] != null) {
                throw new IllegalStateException(
                        "stamp " + stamp + " outside the hold window [" + next + ", " + (next + window) + ")");
            }
            held[(int) (stamp % window)] = segment;
            heldCount++;
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
