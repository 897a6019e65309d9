package dev.faro.zerosided.link;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkTest {

    @Test
    void udpLinkCarriesDatagramsOnLoopback() throws Exception {
        try (UdpPacketLink a = UdpPacketLink.open(0);
                UdpPacketLink b = UdpPacketLink.open(0)) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            buffer.putInt(4, 0xCAFE);
            a.send(buffer, 4, 4, b.port());
            ByteBuffer into = ByteBuffer.allocate(64);
            int length = PacketLink.NOTHING;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (length == PacketLink.NOTHING && System.nanoTime() < deadline) {
                length = b.receive(into, 8);
                Thread.sleep(1);
            }
            assertThat(length).isEqualTo(4);
            assertThat(into.getInt(8)).isEqualTo(0xCAFE);
            assertThat(b.sourcePort()).isEqualTo(a.port());
        }
    }

    @Test
    void faultyLinkLosesDuplicatesAndReordersBySeed() {
        List<Integer> first = run(new FaultInjection(5, 0.1, 0.1, 0.1));
        List<Integer> second = run(new FaultInjection(5, 0.1, 0.1, 0.1));
        // the same seed loses and duplicates the same datagrams (when a held one is released depends on the clock)
        assertThat(first.stream().sorted().toList())
                .isEqualTo(second.stream().sorted().toList());
        assertThat(first)
                .hasSizeBetween(900, 1100)
                .isNotEqualTo(first.stream().sorted().toList());
        long distinct = first.stream().distinct().count();
        assertThat(distinct).as("some lost").isLessThan(1000);
        assertThat(first.size()).as("some duplicated").isGreaterThan((int) distinct);
    }

    @Test
    void delayedDatagramsArriveAfterTheirDelay() {
        InProcessNetwork network = new InProcessNetwork();
        PacketLink receiver = network.open();
        FaultyLink sender = new FaultyLink(network.open(), FaultInjection.NONE, 2_000_000);
        ByteBuffer buffer = ByteBuffer.allocate(16);
        sender.send(buffer, 0, 8, receiver.port());
        assertThat(receiver.receive(buffer, 0)).isEqualTo(PacketLink.NOTHING);
        long start = System.nanoTime();
        while (receiver.receive(buffer, 0) == PacketLink.NOTHING) {
            sender.receive(ByteBuffer.allocate(16), 0); // the owner's polling sends what is due
            assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        }
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(1_000_000);
    }

    private static List<Integer> run(FaultInjection faults) {
        InProcessNetwork network = new InProcessNetwork();
        PacketLink receiver = network.open();
        FaultyLink sender = new FaultyLink(network.open(), faults, 0);
        ByteBuffer buffer = ByteBuffer.allocate(16);
        List<Integer> received = new ArrayList<>();
        ByteBuffer into = ByteBuffer.allocate(16);
        for (int i = 0; i < 1000; i++) {
            buffer.putInt(0, i);
            sender.send(buffer, 0, 4, receiver.port());
            while (receiver.receive(into, 0) != PacketLink.NOTHING) {
                received.add(into.getInt(0));
            }
        }
        // a datagram still held for reordering goes out once its hold time has passed and the owner polls
        long start = System.nanoTime();
        while (System.nanoTime() - start < 2 * FaultyLink.REORDER_HOLD_NS) {
            Thread.onSpinWait();
        }
        sender.receive(ByteBuffer.allocate(16), 0);
        while (receiver.receive(into, 0) != PacketLink.NOTHING) {
            received.add(into.getInt(0));
        }
        return received;
    }
}
