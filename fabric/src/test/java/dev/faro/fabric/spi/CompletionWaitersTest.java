package dev.faro.fabric.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CompletionWaitersTest {

    private static final long PARK_NANOS = TimeUnit.SECONDS.toNanos(60);

    private volatile boolean published;

    @Test
    void wakeAllReleasesEveryRegisteredWaiterAndThoseWithoutASlotNapUntilTheySeeIt() throws Exception {
        CompletionWaiters waiters = new CompletionWaiters();
        int threads = CompletionWaiters.SLOTS + 4; // four find no slot and nap
        CountDownLatch registered = new CountDownLatch(threads);
        List<Thread> started = new ArrayList<>();
        List<Integer> slots = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < threads; i++) {
            started.add(Thread.ofPlatform().start(() -> {
                int slot = waiters.register();
                slots.add(slot);
                registered.countDown();
                try {
                    while (!published) { // the "poll"
                        waiters.park(slot, PARK_NANOS);
                    }
                } finally {
                    waiters.deregister(slot);
                }
            }));
        }
        assertThat(registered.await(30, TimeUnit.SECONDS)).isTrue();
        published = true; // volatile write: the full fence a producer issues after publishing
        waiters.wakeAll();
        for (Thread thread : started) {
            thread.join(TimeUnit.SECONDS.toMillis(30)); // a lost wake-up would park for 60 s
            assertThat(thread.isAlive()).as("a waiter was not woken").isFalse();
        }
        assertThat(slots).filteredOn(slot -> slot < 0).hasSize(4);
        assertThat(waiters.register()).as("every slot was given back").isZero();
    }
}
