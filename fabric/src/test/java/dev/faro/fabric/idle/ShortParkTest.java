package dev.faro.fabric.idle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ShortParkTest {

    private static final boolean LINUX = System.getProperty("os.name", "").startsWith("Linux");

    @Test
    void aThreadsFirstParkLowersItsTimerSlackAndOnlyItsOwn() throws InterruptedException {
        AtomicLong before = new AtomicLong();
        AtomicLong after = new AtomicLong();
        AtomicLong untouched = new AtomicLong();
        Thread parking = Thread.ofPlatform().start(() -> {
            before.set(ShortPark.currentTimerSlackNanos());
            ShortPark.parkNanos(1_000);
            ShortPark.parkNanos(1_000);
            after.set(ShortPark.currentTimerSlackNanos());
        });
        parking.join();
        Thread other = Thread.ofPlatform().start(() -> untouched.set(ShortPark.currentTimerSlackNanos()));
        other.join();
        if (LINUX) {
            assertThat(after.get()).isEqualTo(ShortPark.SLACK_NS);
            assertThat(before.get()).isGreaterThan(ShortPark.SLACK_NS);
            assertThat(untouched.get()).isEqualTo(before.get());
        } else {
            assertThat(after.get()).isEqualTo(-1);
        }
    }

    @Test
    void lowerTimerSlackSaysWhetherItWorked() throws InterruptedException {
        boolean[] lowered = new boolean[1];
        Thread thread = Thread.ofPlatform().start(() -> lowered[0] = ShortPark.lowerTimerSlack());
        thread.join();
        assertThat(lowered[0]).isEqualTo(LINUX);
    }

    @Test
    void anUnparkEndsAPark() throws InterruptedException {
        Thread parked = Thread.ofPlatform().start(() -> ShortPark.parkNanos(60_000_000_000L));
        while (parked.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        java.util.concurrent.locks.LockSupport.unpark(parked);
        parked.join(); // returns at the unpark, not after a minute
        assertThat(parked.isAlive()).isFalse();
    }
}
