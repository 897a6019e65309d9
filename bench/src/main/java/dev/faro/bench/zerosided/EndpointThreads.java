package dev.faro.bench.zerosided;

import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The processing units' threads of one point, the same whichever mechanism moves the items: producers push items
 * into their {@link ZeroSidedBuffer}s as fast as they free up, consumers pop them and count those popped inside the
 * timed window. They only touch their local buffers. Given a unit of work (hash iterations), they are compute-bound
 * instead, as a query's operators are: each does units of work between items and never parks (a producer one unit per
 * item it offers, a consumer one unit per visit after draining what arrived), and the units done inside the window
 * are the endpoints' useful work.
 *
 * <p>Each thread is a data-path loop (allocation-free); starting and joining them is coordination code.
 */
final class EndpointThreads {

    private final List<Thread> threads = new ArrayList<>();
    private final CorePlacement placement;
    private final int work;
    private final AtomicLong counted = new AtomicLong();
    private final AtomicLong units = new AtomicLong();
    private final AtomicLong checksum = new AtomicLong();
    private final AtomicLong communicationNanos = new AtomicLong();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private volatile boolean stop;

    /** Endpoint threads that only push and pop, unpinned. */
    EndpointThreads() {
        this(CorePlacement.of(false), 0);
    }

    /**
     * Endpoint threads pinned as {@code placement} says, compute-bound with units of {@code work} hash iterations
     * ({@code work} 0: they only push and pop).
     */
    EndpointThreads(CorePlacement placement, int work) {
        this.placement = placement;
        this.work = work;
    }

    /** Starts one producer thread per buffer; they run until {@link #stop()}. */
    void startProducers(List<ZeroSidedBuffer> buffers) {
        startProducers(buffers, Long.MIN_VALUE, Long.MIN_VALUE);
    }

    /** Starts one producer thread per buffer, counting their units of work between the two deadlines (nanoTime). */
    void startProducers(List<ZeroSidedBuffer> buffers, long windowStartNs, long windowEndNs) {
        for (ZeroSidedBuffer buffer : buffers) {
            threads.add(Thread.ofPlatform().name("producer").start(() -> {
                placement.pinEndpointThread();
                if (work == 0) {
                    produce(buffer);
                } else {
                    produceBusy(buffer, windowStartNs, windowEndNs);
                }
            }));
        }
    }

    /** Starts one consumer thread per buffer, counting items popped between the two deadlines (nanoTime). */
    void startConsumers(List<ZeroSidedBuffer> buffers, long windowStartNs, long windowEndNs) {
        for (ZeroSidedBuffer buffer : buffers) {
            threads.add(Thread.ofPlatform().name("consumer").start(() -> {
                try {
                    placement.pinEndpointThread();
                    if (work == 0) {
                        consume(buffer, windowStartNs, windowEndNs);
                    } else {
                        consumeBusy(buffer, windowStartNs, windowEndNs);
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
    }

    private void produce(ZeroSidedBuffer buffer) {
        long sequence = 0;
        int idle = 0;
        while (!stop) {
            long slot = buffer.claimSlot();
            if (slot == ZeroSidedBuffer.NONE) {
                idle = backOff(idle);
                continue;
            }
            idle = 0;
            buffer.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, sequence++);
            buffer.push();
        }
        communicationNanos.addAndGet(buffer.communicationNanos());
    }

    private void consume(ZeroSidedBuffer buffer, long windowStartNs, long windowEndNs) {
        long inWindow = 0;
        long expected = 0;
        int idle = 0;
        while (true) {
            long now = System.nanoTime();
            if (now - windowEndNs >= 0) {
                break;
            }
            long slot = buffer.nextSlot();
            if (slot < 0) {
                idle = backOff(idle);
                continue;
            }
            idle = 0;
            long sequence = buffer.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
            if (sequence != expected) {
                throw new IllegalStateException("flow out of order: expected item " + expected + ", got " + sequence);
            }
            expected++;
            buffer.pop();
            if (now - windowStartNs >= 0) {
                inWindow++;
            }
        }
        counted.addAndGet(inWindow);
        communicationNanos.addAndGet(buffer.communicationNanos());
    }

    /** A compute-bound producer: one unit of work per item offered; the item's words are the work's results. */
    private void produceBusy(ZeroSidedBuffer buffer, long windowStartNs, long windowEndNs) {
        long sequence = 0;
        long state = 0x9E3779B97F4A7C15L;
        long done = 0;
        int words = buffer.itemBytes() / Long.BYTES;
        while (!stop) {
            state = compute(state, work);
            long now = System.nanoTime();
            if (now - windowStartNs >= 0 && now - windowEndNs < 0) {
                done++;
            }
            long slot = buffer.claimSlot();
            if (slot == ZeroSidedBuffer.NONE) {
                continue; // full: the unit was useful work all the same
            }
            MemorySegment item = buffer.segment();
            item.set(ValueLayout.JAVA_LONG_UNALIGNED, slot, sequence++);
            for (int word = 1; word < words; word++) {
                item.set(ValueLayout.JAVA_LONG_UNALIGNED, slot + (long) word * Long.BYTES, state + word);
            }
            buffer.push();
        }
        units.addAndGet(done);
        checksum.addAndGet(state);
        communicationNanos.addAndGet(buffer.communicationNanos());
    }

    /** A compute-bound consumer: drains what arrived (reading every word), then does one unit of work. */
    private void consumeBusy(ZeroSidedBuffer buffer, long windowStartNs, long windowEndNs) {
        long inWindow = 0;
        long expected = 0;
        long state = 0x632BE59BD9B4E019L;
        long done = 0;
        long sum = 0;
        int words = buffer.itemBytes() / Long.BYTES;
        while (true) {
            long now = System.nanoTime();
            if (now - windowEndNs >= 0) {
                break;
            }
            boolean inside = now - windowStartNs >= 0;
            long slot;
            while ((slot = buffer.nextSlot()) >= 0) {
                MemorySegment item = buffer.segment();
                long sequence = item.get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
                if (sequence != expected) {
                    throw new IllegalStateException(
                            "flow out of order: expected item " + expected + ", got " + sequence);
                }
                expected++;
                for (int word = 1; word < words; word++) {
                    sum += item.get(ValueLayout.JAVA_LONG_UNALIGNED, slot + (long) word * Long.BYTES);
                }
                buffer.pop();
                if (inside) {
                    inWindow++;
                }
            }
            state = compute(state, work);
            if (inside) {
                done++;
            }
        }
        counted.addAndGet(inWindow);
        units.addAndGet(done);
        checksum.addAndGet(state + sum);
        communicationNanos.addAndGet(buffer.communicationNanos());
    }

    /** One unit of useful work: {@code iterations} rounds of a 64-bit mix (a dependency chain the JIT cannot skip). */
    static long compute(long state, int iterations) {
        long x = state;
        for (int i = 0; i < iterations; i++) {
            x ^= x >>> 33;
            x *= 0xFF51AFD7ED558CCDL;
            x ^= x >>> 29;
        }
        return x;
    }

    /**
     * Spin briefly, then park: a blocked endpoint thread must not starve the NIC, switch and driver threads on a
     * machine with few cores. No yield phase: a yielding thread stays runnable and, measured with JFR on a loaded
     * 2-core host, the two endpoint threads took as much CPU in yields as the NIC and switch threads in moving the
     * data. A buffer holds enough items to ride out a park.
     */
    private static int backOff(int idle) {
        if (idle < 64) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(100_000);
        }
        return idle + 1;
    }

    /** Waits for the consumers (they end with their window) or stops and waits for the producers. */
    void stop() throws InterruptedException {
        stop = true;
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** Items the consumers popped inside the window. */
    long counted() {
        return counted.get();
    }

    /** Units of useful work the endpoint threads did inside the window (0 when they only push and pop). */
    long units() {
        return units.get();
    }

    /** What the work computed (so that it cannot be optimised away); meaningless otherwise. */
    long checksum() {
        return checksum.get();
    }

    /** Nanoseconds the endpoint threads spent on communication (doorbells; 0 when polled). */
    long communicationNanos() {
        return communicationNanos.get();
    }
}
