package dev.faro.fabric.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contention model's arithmetic on a clock the test sets (no time passes, nothing is timed): a port carries its
 * senders' bytes one after the other at the cap, a sender blocked at a busy port sends nothing else (head-of-line)
 * beyond its input buffer, and conflict-free pairs do not slow each other.
 */
class PortContentionTest {

    private static final int MIB = 1 << 20;
    /** 1 GiB/s: one MiB takes 2^20 · 10^9 / 2^30 ns. */
    private static final long ONE_MIB_NANOS = 1_000_000_000L / 1024;

    private final Arena arena = Arena.ofConfined();
    private long now;

    @AfterEach
    void close() {
        arena.close();
    }

    private MemorySegment node() {
        return arena.allocate(NodeDescriptor.LENGTH, 8);
    }

    private PortContention model(long inputBuffer) {
        return new PortContention(1L << 30, inputBuffer, () -> now);
    }

    @Test
    void aPortCarriesEverySendersBytesOneAfterTheOtherAtTheCap() {
        PortContention model = model(0);
        MemorySegment a = node();
        MemorySegment b = node();
        MemorySegment port = node();
        long lastRelease = 0;
        for (int message = 0; message < 10; message++) {
            for (MemorySegment sender : new MemorySegment[] {a, b}) {
                now = NodeDescriptor.egressFree(sender); // each sender posts its next message as soon as it may
                long release = model.admit(sender, port, MIB, now);
                assertThat(release)
                        .as("releases at one port follow admission order")
                        .isGreaterThan(lastRelease);
                lastRelease = release;
            }
        }
        assertThat(NodeDescriptor.ingressFree(port))
                .as("20 MiB through one 1 GiB/s port")
                .isEqualTo(20 * ONE_MIB_NANOS);
        assertThat(NodeDescriptor.egressFree(a))
                .as("each sender got half the port")
                .isGreaterThanOrEqualTo(19 * ONE_MIB_NANOS);
    }

    @Test
    void aSenderWaitingForABusyPortSendsNothingElseBeyondItsInputBuffer() {
        MemorySegment busy = node();
        MemorySegment idle = node();
        for (long buffer : new long[] {0, 256 * 1024, 4L * MIB}) {
            PortContention model = model(buffer);
            MemorySegment other = node();
            MemorySegment sender = node();
            now = 0;
            NodeDescriptor.advanceIngress(busy, NodeDescriptor.ingressFree(busy), 0);
            NodeDescriptor.advanceIngress(idle, NodeDescriptor.ingressFree(idle), 0);
            for (int i = 0; i < 3; i++) {
                now = NodeDescriptor.egressFree(other);
                model.admit(other, busy, MIB, now); // the port is reserved for 3 MiB
            }
            now = 0;
            long first = model.admit(sender, busy, MIB, now);
            now = first - 1;
            assertThat(model.admit(sender, idle, MIB, now))
                    .as("buffer %d: the link is busy until the blocked message is let go", buffer)
                    .isEqualTo(PortContention.NOT_ADMITTED);
            now = first;
            long second = model.admit(sender, idle, MIB, now);
            long portEnd = 4 * ONE_MIB_NANOS;
            assertThat(first)
                    .as("buffer %d: the blocked message is let go when all but the buffer has drained", buffer)
                    .isEqualTo(Math.max(ONE_MIB_NANOS, portEnd - buffer * ONE_MIB_NANOS / MIB));
            assertThat(second)
                    .as("buffer %d: the message to the idle port waits behind it (head-of-line)", buffer)
                    .isEqualTo(first + ONE_MIB_NANOS);
        }
    }

    @Test
    void conflictFreePairsDoNotSlowEachOtherButAllToOneDoes() {
        PortContention model = model(0);
        MemorySegment[] nodes = {node(), node(), node(), node()};
        now = 0;
        for (int i = 0; i < 4; i++) {
            assertThat(model.admit(nodes[i], nodes[(i + 1) % 4], MIB, now))
                    .as("a round-robin phase: every port has one sender")
                    .isEqualTo(ONE_MIB_NANOS);
        }
        assertThat(model.admit(nodes[1], nodes[0], MIB, now))
                .as("a link is busy until its message is through")
                .isEqualTo(PortContention.NOT_ADMITTED);
        now = ONE_MIB_NANOS;
        long last = 0;
        for (int i = 1; i < 4; i++) {
            last = model.admit(nodes[i], nodes[0], MIB, now);
        }
        assertThat(last).as("three senders to one port, after the phase").isEqualTo(ONE_MIB_NANOS + 3 * ONE_MIB_NANOS);
    }

    @Test
    void aThreadGettingLateToAWaitingRequestDoesNotSlowTheLink() {
        PortContention model = model(0);
        MemorySegment sender = node();
        MemorySegment port = node();
        now = 0;
        long posted = 0;
        assertThat(model.admit(sender, port, MIB, posted)).isEqualTo(ONE_MIB_NANOS);
        now = ONE_MIB_NANOS + 5_000_000; // the second request, posted at 0, is looked at 5 ms late
        assertThat(model.admit(sender, port, MIB, posted))
                .as("it entered the switch when the link became free")
                .isEqualTo(2 * ONE_MIB_NANOS);
        long idleUntil = 10 * ONE_MIB_NANOS;
        now = idleUntil;
        assertThat(model.admit(sender, port, MIB, idleUntil))
                .as("a request posted on an idle link starts when posted")
                .isEqualTo(idleUntil + ONE_MIB_NANOS);
    }

    @Test
    void requestsOfOnePacketAreNotModelled() {
        assertThat(PortContention.isModelled(PortContention.MIN_MODELLED_BYTES)).isFalse();
        assertThat(PortContention.isModelled(PortContention.MIN_MODELLED_BYTES + 1))
                .isTrue();
    }

    @Test
    void optionsParseByteCountsAndLeaveTheModelOffByDefault() {
        assertThat(PortContention.fromOptions(null, "1m")).isNull();
        assertThat(PortContention.fromOptions("0", null)).isNull();
        assertThat(PortContention.fromOptions("256m", null)).isNotNull();
        assertThat(PortContention.parseBytes("x", "1g")).isEqualTo(1L << 30);
        assertThat(PortContention.parseBytes("x", "64K")).isEqualTo(64 * 1024);
        assertThat(PortContention.parseBytes("x", "1000")).isEqualTo(1000);
        assertThatThrownBy(() -> PortContention.fromOptions("fast", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ShmFabricProvider.PORT_BANDWIDTH_OPTION);
        assertThatThrownBy(() -> PortContention.parseBytes("x", "-1")).isInstanceOf(IllegalArgumentException.class);
    }
}
