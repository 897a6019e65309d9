package dev.faro.bench.zerosided;

import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The N:M key-based shuffle flow of SIGMOD24 Fig. 5a over the switch ({@link SwitchRig}): each producer has one buffer
 * per consumer (P × C), each consumer one buffer (C); a tuple is one item. Producers only write tuples into the slot
 * of their key's buffer and push; consumers only pop; the switch visits a consumer's producers round robin and moves
 * min(available, free, 64 KiB) at a time, so transfers are larger than tuples. A producer ends with an end tuple in
 * each of its buffers (for its finish time) and {@link ZeroSidedBuffer#finish()}; a consumer ends at the flow's end of
 * stream (the switch's teardown, after every producer finished).
 *
 * <p>Coordination code around data-path loops (allocation-free per tuple).
 */
final class ZeroSidedTupleShuffle implements TupleShuffle {

    static final String NAME = "zero-sided";

    private static final int BUFFER_BYTES = 256 << 10;
    private static final int MAX_BATCH_BYTES = 64 << 10;

    private final LinkKind link;
    private final int consumers;

    ZeroSidedTupleShuffle(LinkKind link, int consumers) {
        this.link = link;
        this.consumers = consumers;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result run(int producers, int tupleBytes, long tuplesPerProducer, Generator generator, Sink[] sinks)
            throws Exception {
        int capacity = Math.max(64, Math.min(1 << 16, BUFFER_BYTES / tupleBytes));
        try (SwitchRig rig = new SwitchRig(link, SwitchConfig.DEFAULT.withMaxBatchBytes(MAX_BATCH_BYTES))) {
            ZeroSidedBuffer[][] out = new ZeroSidedBuffer[producers][consumers];
            int[][] outIds = new int[producers][consumers];
            for (int p = 0; p < producers; p++) {
                for (int c = 0; c < consumers; c++) {
                    SwitchRig.Buffer buffer = rig.expose(capacity, tupleBytes, true, false);
                    out[p][c] = buffer.view();
                    outIds[p][c] = buffer.endpoint();
                }
            }
            ZeroSidedBuffer[] in = new ZeroSidedBuffer[consumers];
            int[] inIds = new int[consumers];
            for (int c = 0; c < consumers; c++) {
                SwitchRig.Buffer buffer = rig.expose(capacity, tupleBytes, false, false);
                in[c] = buffer.view();
                inIds[c] = buffer.endpoint();
            }
            rig.control().installShuffle(outIds, inIds);
            rig.start();
            long[][] doneAt = new long[consumers][producers];
            ShuffleThreads threads = new ShuffleThreads();
            long start = System.nanoTime();
            threads.start("zs-consumer", consumers, c -> consume(threads, rig, in[c], sinks[c], doneAt[c], start));
            threads.start(
                    "zs-producer", producers, p -> produce(threads, rig, p, out[p], tuplesPerProducer, generator));
            threads.join();
            long nanos = System.nanoTime() - start;
            rig.check();
            return new Result(nanos, latest(doneAt, producers));
        }
    }

    private void produce(
            ShuffleThreads threads,
            SwitchRig rig,
            int producer,
            ZeroSidedBuffer[] out,
            long tuples,
            Generator generator) {
        int idle = 0;
        for (long i = 0; i <= tuples; i++) {
            boolean end = i == tuples;
            long key = end ? END_KEY : generator.key(producer, i);
            int first = end ? 0 : TupleShuffle.consumerOf(key, consumers);
            int last = end ? consumers - 1 : first;
            for (int c = first; c <= last; c++) {
                long slot;
                while ((slot = out[c].claimSlot()) == ZeroSidedBuffer.NONE) {
                    idle = threads.idle(idle);
                    checkRig(rig, idle);
                }
                if (idle > 0) {
                    threads.progress();
                    idle = 0;
                }
                MemorySegment segment = out[c].segment();
                segment.set(ValueLayout.JAVA_LONG_UNALIGNED, slot, key);
                segment.set(
                        ValueLayout.JAVA_LONG_UNALIGNED,
                        slot + Long.BYTES,
                        end ? producer : generator.payload(producer, i));
                out[c].push();
            }
        }
        for (ZeroSidedBuffer buffer : out) {
            buffer.finish();
        }
    }

    private static void consume(
            ShuffleThreads threads, SwitchRig rig, ZeroSidedBuffer in, Sink sink, long[] doneAt, long start) {
        int idle = 0;
        MemorySegment segment = in.segment();
        while (true) {
            long slot = in.nextSlot();
            if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                return;
            }
            if (slot == ZeroSidedBuffer.NONE) {
                idle = threads.idle(idle);
                checkRig(rig, idle);
                continue;
            }
            if (idle > 0) {
                threads.progress();
                idle = 0;
            }
            long key = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
            long payload = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot + Long.BYTES);
            in.pop();
            if (key == END_KEY) {
                doneAt[(int) payload] = System.nanoTime() - start;
            } else {
                sink.accept(key, payload);
            }
        }
    }

    private static void checkRig(SwitchRig rig, int idle) {
        if ((idle & 1023) == 1023) {
            rig.check();
        }
    }

    static long[] latest(long[][] doneAt, int producers) {
        long[] latest = new long[producers];
        for (long[] consumer : doneAt) {
            for (int p = 0; p < producers; p++) {
                latest[p] = Math.max(latest[p], consumer[p]);
            }
        }
        return latest;
    }
}
