package dev.faro.bench.zerosided;

import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The processing units' threads of one point, the same whichever mechanism moves the items: producers push items
 * into their {@link ZeroSidedBuffer}s as fast as they free up, consumers pop them and count those popped inside the
 * timed window. They only touch their local buffers.
 *
 * <p>Each thread is a data-path loop (allocation-free); starting and joining them is coordination code.
 */
final class EndpointThreads {

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong counted = new AtomicLong();
    private final AtomicLong communicationNanos = new AtomicLong();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private volatile boolean stop;

    /** Starts one producer thread per buffer; they run until {@link #stop()}. */
    void startProducers(List<ZeroSidedBuffer> buffers) {
        for (ZeroSidedBuffer buffer : buffers) {
            threads.add(Thread.ofPlatform().name("producer").start(() -> produce(buffer)));
        }
    }

    /** Starts one consumer thread per buffer, counting items popped between the two deadlines (nanoTime). */
    void startConsumers(List<ZeroSidedBuffer> buffers, long windowStartNs, long windowEndNs) {
        for (ZeroSidedBuffer buffer : buffers) {
            threads.add(Thread.ofPlatform().name("consumer").start(() -> {
                try {
                    consume(buffer, windowStartNs, windowEndNs);
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

    /** Nanoseconds the endpoint threads spent on communication (doorbells; 0 when polled). */
    long communicationNanos() {
        return communicationNanos.get();
    }
}
