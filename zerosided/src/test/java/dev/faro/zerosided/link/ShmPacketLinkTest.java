package dev.faro.zerosided.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShmPacketLinkTest {

    @TempDir
    Path directory;

    @Test
    void carriesByteExactDatagramsAndNamesTheirSender() {
        try (ShmPacketLink a = ShmPacketLink.open(directory);
                ShmPacketLink b = ShmPacketLink.open(directory)) {
            assertThat(a.port()).isNotEqualTo(b.port());
            ByteBuffer buffer = ByteBuffer.allocateDirect(2048);
            for (int i = 0; i < 1100; i++) {
                buffer.put(8 + i, (byte) (i * 7));
            }
            a.send(buffer, 8, 1100, b.port());
            ByteBuffer into = ByteBuffer.allocateDirect(2048);
            assertThat(b.receive(into, 16)).isEqualTo(1100);
            for (int i = 0; i < 1100; i++) {
                assertThat(into.get(16 + i)).isEqualTo((byte) (i * 7));
            }
            assertThat(b.sourcePort()).isEqualTo(a.port());
            assertThat(b.receive(into, 0)).isEqualTo(PacketLink.NOTHING);
        }
        try (var files = list(directory)) {
            assertThat(files).as("closed links remove their files").isEmpty();
        }
    }

    @Test
    void aFullRingOrAMissingOrClosedPortDrops() {
        try (ShmPacketLink a = ShmPacketLink.open(directory)) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            a.send(buffer, 0, 8, 4242); // nobody there
            assertThat(a.droppedDatagrams()).isEqualTo(1);
            ShmPacketLink b = ShmPacketLink.open(directory);
            for (int i = 0; i < ShmPacketLink.SLOTS + 10; i++) {
                a.send(buffer, 0, 8, b.port());
            }
            assertThat(a.droppedDatagrams()).isEqualTo(11);
            int received = 0;
            while (b.receive(buffer, 0) != PacketLink.NOTHING) {
                received++;
            }
            assertThat(received).isEqualTo(ShmPacketLink.SLOTS);
            int port = b.port();
            b.close();
            a.send(buffer, 0, 8, port);
            assertThat(a.droppedDatagrams()).isEqualTo(12);
        }
    }

    @Test
    void portsNameTheirProcessAndDeadProcessesFilesAreSwept() throws Exception {
        long deadPid = 4_000_000;
        while (ProcessHandle.of(deadPid).isPresent()) {
            deadPid--;
        }
        Path dead = directory.resolve("zs-link-" + (deadPid << ShmPacketLink.INDEX_BITS | 1));
        Path alive = directory.resolve(
                "zs-link-" + (ProcessHandle.current().parent().orElseThrow().pid() << ShmPacketLink.INDEX_BITS | 1));
        Files.write(dead, new byte[16]);
        Files.write(alive, new byte[16]);
        try (ShmPacketLink link = ShmPacketLink.open(directory)) {
            assertThat(link.port() >>> ShmPacketLink.INDEX_BITS)
                    .isEqualTo(ProcessHandle.current().pid());
            assertThat(dead).as("a dead process's file").doesNotExist();
            assertThat(alive).as("a live process's file").exists();
        }
    }

    @Test
    void theLastLinkToCloseSweepsADeadProcessesFileAndRemovesTheEmptyDirectory() throws Exception {
        Path shared = directory.resolve("links");
        long deadPid = 4_000_000;
        while (ProcessHandle.of(deadPid).isPresent()) {
            deadPid--;
        }
        Path dead = shared.resolve("zs-link-" + (deadPid << ShmPacketLink.INDEX_BITS | 1));
        try (ShmPacketLink first = ShmPacketLink.open(shared);
                ShmPacketLink second = ShmPacketLink.open(shared)) {
            Files.write(dead, new byte[16]); // a worker killed while this process ran (after its first sweep)
            first.close();
            assertThat(dead)
                    .as("swept only when the process's last link closes")
                    .exists();
        }
        assertThat(dead).as("a dead process's file").doesNotExist();
        assertThat(shared).as("the emptied directory").doesNotExist();
        try (ShmPacketLink again = ShmPacketLink.open(shared)) {
            assertThat(shared).isDirectory();
        }
    }

    @Test
    void concurrentSendersLoseNothingTheReceiverKeepsUpWith() throws Exception {
        int senders = 3;
        int perSender = 20_000;
        try (ShmPacketLink receiver = ShmPacketLink.open(directory)) {
            List<ShmPacketLink> links = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                links.add(ShmPacketLink.open(directory));
            }
            AtomicLong dropped = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                int sender = s;
                threads.add(Thread.ofPlatform().start(() -> {
                    ShmPacketLink link = links.get(sender);
                    ByteBuffer buffer = ByteBuffer.allocate(64);
                    for (int i = 0; i < perSender; i++) {
                        buffer.putInt(0, sender * perSender + i);
                        buffer.putInt(4, ~(sender * perSender + i));
                        link.send(buffer, 0, 8, receiver.port());
                    }
                    dropped.addAndGet(link.droppedDatagrams());
                }));
            }
            BitSet seen = new BitSet();
            ByteBuffer into = ByteBuffer.allocate(64);
            long received = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            boolean sendersDone = false;
            while (!sendersDone) {
                sendersDone = threads.stream().noneMatch(Thread::isAlive); // then one last drain below
                int length;
                while ((length = receiver.receive(into, 0)) != PacketLink.NOTHING) {
                    assertThat(length).isEqualTo(8);
                    int id = into.getInt(0);
                    assertThat(into.getInt(4)).as("datagram %d intact", id).isEqualTo(~id);
                    assertThat(seen.get(id)).as("datagram %d once", id).isFalse();
                    seen.set(id);
                    received++;
                }
                assertThat(System.nanoTime()).isLessThan(deadline);
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(received + dropped.get()).isEqualTo((long) senders * perSender);
            assertThat(received).isPositive();
            links.forEach(ShmPacketLink::close);
        }
    }

    /** The files left in {@code directory}; none when the last link removed the directory itself. */
    private static java.util.stream.Stream<Path> list(Path directory) {
        if (!Files.exists(directory)) {
            return java.util.stream.Stream.empty();
        }
        try {
            return Files.list(directory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
