package dev.faro.zerosided.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The futex wait of {@link ShmPacketLink#awaitDatagram}: a send wakes a sleeping receiver, and no wake-up is lost.
 * The waits here are an hour long, so a lost wake-up outlasts the test's timeout, which then fails it (a guard, not a
 * measurement): the timeout runs the test on a thread of its own, since a thread in the futex call ignores interrupts,
 * and the threads the tests start are daemons, which a lost wake-up leaves behind without holding up the JVM's exit.
 */
class ShmPacketLinkWakeUpTest {

    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);

    @TempDir
    Path directory;

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSendWakesASleepingReceiverWithOneSystemCall() throws Exception {
        assumeTrue(SharedFutex.available(), "futex(2) through the linker");
        try (ShmPacketLink sender = ShmPacketLink.open(directory);
                ShmPacketLink receiver = ShmPacketLink.open(directory)) {
            Thread sleeper = sleepOn(receiver);
            ByteBuffer buffer = ByteBuffer.allocateDirect(64);
            buffer.putLong(0, 42);
            sender.send(buffer, 0, 8, receiver.port());
            sender.send(buffer, 0, 8, receiver.port()); // the receiver is no longer marked asleep: no second call
            sleeper.join();
            assertThat(sender.wakeUps()).isEqualTo(1);
            assertThat(receiver.receiverWaiting()).isFalse();
            assertThat(receiver.receive(buffer, 0)).isEqualTo(8);
            assertThat(buffer.getLong(0)).isEqualTo(42);
        }
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBurstWakesASleepingReceiverOnceAtItsEnd() throws Exception {
        assumeTrue(SharedFutex.available(), "futex(2) through the linker");
        try (ShmPacketLink sender = ShmPacketLink.open(directory);
                ShmPacketLink receiver = ShmPacketLink.open(directory)) {
            Thread sleeper = sleepOn(receiver);
            ByteBuffer buffer = ByteBuffer.allocateDirect(64);
            sender.beginBurst();
            for (int i = 0; i < 5; i++) {
                sender.send(buffer, 0, 8, receiver.port());
            }
            assertThat(sender.wakeUps()).as("held back").isZero();
            sender.endBurst();
            sleeper.join();
            assertThat(sender.wakeUps()).isEqualTo(1);
            for (int i = 0; i < 5; i++) {
                assertThat(receiver.receive(buffer, 0)).isEqualTo(8);
            }
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void pingPongBetweenSleepingThreadsLosesNoWakeUp() throws Exception {
        int rounds = 3_000;
        try (ShmPacketLink ping = ShmPacketLink.open(directory);
                ShmPacketLink pong = ShmPacketLink.open(directory)) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread answering = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    bounce(pong, ping.port(), rounds, false);
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            bounce(ping, pong.port(), rounds, true);
            answering.join();
            assertThat(failure.get()).isNull();
            if (SharedFutex.available()) {
                assertThat(ping.sleeps() + pong.sleeps())
                        .as("the threads slept")
                        .isPositive();
            }
        }
    }

    /** Starts a thread that waits on {@code receiver} (an hour at most) and returns it once the link says so. */
    private static Thread sleepOn(ShmPacketLink receiver) {
        Thread sleeper = Thread.ofPlatform().daemon(true).start(() -> receiver.awaitDatagram(HOUR_NS));
        while (!receiver.receiverWaiting()) {
            LockSupport.parkNanos(100_000);
        }
        return sleeper;
    }

    /** Sends a counter back and forth {@code rounds} times, sleeping (an hour at most) whenever nothing arrived. */
    private static void bounce(ShmPacketLink link, int peer, int rounds, boolean starts) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        long expected = starts ? 1 : 0;
        if (starts) {
            buffer.putLong(0, 0);
            link.send(buffer, 0, 8, peer);
        }
        while (expected < 2L * rounds - (starts ? 0 : 1)) {
            if (link.receive(buffer, 0) == PacketLink.NOTHING) {
                link.awaitDatagram(HOUR_NS);
                continue;
            }
            assertThat(buffer.getLong(0)).isEqualTo(expected);
            buffer.putLong(0, expected + 1);
            link.send(buffer, 0, 8, peer);
            expected += 2;
        }
    }
}
