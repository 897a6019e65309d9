package dev.faro.fabric.shm;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricTesting.RcLink;
import dev.faro.fabric.FabricTesting.UdEnd;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node unmaps the files of other nodes (and its own peer view of its files) once their owner retires them, so a
 * long-running node's mappings do not grow with the regions, queue pairs and completion queues that come and go; and
 * a request through a stale mapping completes with an error instead of crashing the JVM. Counts mappings in {@code
 * /proc/self/maps}. Importing a peer's key maps its region at once, page tables filled ({@link PageTables}), so that
 * the first WRITEs into it fault no pages; filling them changes no byte.
 */
class ShmMappingReleaseTest {

    private Path directory;
    private final List<Fabric> fabrics = new ArrayList<>();

    @BeforeEach
    void createDirectory() throws IOException {
        directory = ShmDirectories.createFresh();
    }

    @AfterEach
    void closeNodes() {
        fabrics.forEach(Fabric::close);
        ShmDirectories.deleteRecursively(directory);
    }

    private ShmFabric open(String name) {
        return open(FabricConfig.of("shm", name).withOption("shm.directory", directory.toString()));
    }

    private ShmFabric open(FabricConfig config) {
        ShmFabric fabric = (ShmFabric) new ShmFabricProvider().open(config);
        fabrics.add(fabric);
        return fabric;
    }

    @Test
    void filesOfRetiredRegionsQueuePairsAndCompletionQueuesAreUnmapped() {
        ShmFabric a = open("a");
        ShmFabric b = open("b");
        int rounds = 300;
        for (int round = 0; round < rounds; round++) {
            exchangeAndClose(a, b, round);
            if (round == 0) {
                awaitCondition(
                        () -> a.mappedPeerFiles() == 0 && b.mappedPeerFiles() == 0,
                        "the first round's files are unmapped");
            }
        }
        long afterWarmUp = 2 + 2; // each node's own node file and its view of the other's
        awaitCondition(
                () -> a.mappedPeerFiles() == 0 && b.mappedPeerFiles() == 0,
                "every retired file is unmapped after " + rounds + " rounds");
        awaitCondition(() -> mappingsOfDirectory() <= afterWarmUp, "only the node files stay mapped");
        assertThat(mappingsOfDirectory())
                .as("mappings of %s in /proc/self/maps", directory)
                .isLessThanOrEqualTo(afterWarmUp);
    }

    /** One round as a query makes it: regions, RC and UD queue pairs and completion queues, used, then closed. */
    private static void exchangeAndClose(Fabric a, Fabric b, int round) {
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(64 * KIB, EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE));
        MemoryRegion source = a.register(64 * KIB, ALL_RIGHTS);
        WorkRequest request = new WorkRequest();
        link.b().queuePair().postReceive(1, target, 0, 4 * KIB);
        link.a()
                .queuePair()
                .postSend(request.clear().requestId(1).opcode(Opcode.SEND).local(source, 0, 4 * KIB));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 8 * KIB)
                        .remote(keyAt(a, target), 8 * KIB));
        assertThat(awaitCompletions(link.a().completionQueue(), 2, "SEND and WRITE of round " + round))
                .allMatch(completion -> completion.isSuccess());
        assertSuccess(awaitCompletion(link.b().completionQueue(), "receive of round " + round), 1, Opcode.RECEIVE);

        UdEnd sender = udEnd(a, 2, 1);
        UdEnd receiver = udEnd(b, 1, 2);
        receiver.queuePair().postReceive(3, target, 16 * KIB, 4 * KIB);
        sender.queuePair()
                .postSend(request.clear()
                        .requestId(3)
                        .opcode(Opcode.SEND)
                        .local(source, 0, 1024)
                        .destination(addressAt(a, receiver.queuePair())));
        assertThat(awaitCompletion(sender.completionQueue(), "UD send of round " + round)
                        .isSuccess())
                .isTrue();
        assertSuccess(awaitCompletion(receiver.completionQueue(), "UD receive of round " + round), 3, Opcode.RECEIVE);

        for (var queuePair :
                List.of(link.a().queuePair(), link.b().queuePair(), sender.queuePair(), receiver.queuePair())) {
            queuePair.close();
        }
        for (var queue : List.of(
                link.a().completionQueue(),
                link.b().completionQueue(),
                sender.completionQueue(),
                receiver.completionQueue())) {
            queue.close();
        }
        target.close();
        source.close();
    }

    @Test
    void aWriteThroughTheKeyOfARegionUnmappedMeanwhileFailsWithAnErrorCompletion() {
        ShmFabric a = open("a");
        ShmFabric b = open("b");
        RcLink link = connectRc(a, b, 4, 1);
        MemoryRegion target = b.register(64 * KIB, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(64 * KIB, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 4096)
                        .remote(key, 0));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "first WRITE"), 1, Opcode.WRITE);
        int mapped = a.mappedPeerFiles();

        target.close();
        awaitCondition(() -> a.mappedPeerFiles() < mapped, "a unmaps b's deregistered region");
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 4096)
                        .remote(key, 0));
        assertThat(awaitCompletion(link.a().completionQueue(), "WRITE after the unmap")
                        .status())
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    void aSendToAQueuePairUnmappedMeanwhileFailsOrIsDropped() {
        ShmFabric a = open("a");
        ShmFabric b = open("b");
        RcLink link = connectRc(a, b, 4, 1);
        UdEnd sender = udEnd(a, 4, 1);
        UdEnd receiver = udEnd(b, 1, 4);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        MemoryRegion buffer = b.register(4096, LOCAL_WRITE);
        var destination = addressAt(a, receiver.queuePair());
        WorkRequest request = new WorkRequest();
        receiver.queuePair().postReceive(1, buffer, 0, 4096);
        sender.queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.SEND)
                        .local(source, 0, 512)
                        .destination(destination));
        assertThat(awaitCompletion(sender.completionQueue(), "UD send").isSuccess())
                .isTrue();
        awaitCompletion(receiver.completionQueue(), "UD receive");
        int mapped = a.mappedPeerFiles();

        link.b().queuePair().close();
        receiver.queuePair().close();
        receiver.completionQueue().close();
        awaitCondition(() -> a.mappedPeerFiles() <= mapped - 3, "a unmaps b's closed queue pairs and queue");

        sender.queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.SEND)
                        .local(source, 0, 512)
                        .destination(destination));
        assertThat(awaitCompletion(sender.completionQueue(), "UD send to a closed queue pair")
                        .isSuccess())
                .as("a datagram to a closed queue pair is dropped, as with a NIC")
                .isTrue();
        link.a()
                .queuePair()
                .postSend(request.clear().requestId(3).opcode(Opcode.SEND).local(source, 0, 512));
        assertThat(awaitCompletion(link.a().completionQueue(), "RC send to a closed queue pair")
                        .status())
                .isIn(PEER_GONE);
    }

    @Test
    void writesRacingTheUnmapOfTheirTargetCompleteWithErrorsNotExceptions() throws Exception {
        ShmFabric a = open("a");
        int bytes = 1 << 20;
        for (int attempt = 0; attempt < 20; attempt++) {
            ShmFabric b = open("b" + attempt); // a fresh node: a's view of the last one is closed
            RcLink link = connectRc(a, b, 1, 1);
            MemoryRegion target = b.register(bytes, EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion source = a.register(bytes, NO_RIGHTS);
            RemoteKey key = keyAt(a, target);
            AtomicReference<CompletionStatus> failedWith = new AtomicReference<>();
            int[] written = new int[1];
            Task writer = () -> {
                WorkRequest request = new WorkRequest();
                WorkCompletion[] completion = WorkCompletion.array(1);
                for (long id = 0; failedWith.get() == null; id++) {
                    link.a()
                            .queuePair()
                            .postSend(request.clear()
                                    .requestId(id)
                                    .opcode(Opcode.WRITE)
                                    .local(source, 0, bytes)
                                    .remote(key, 0));
                    awaitCondition(() -> link.a().completionQueue().poll(completion) == 1, "WRITE " + id);
                    if (completion[0].status() != CompletionStatus.SUCCESS) {
                        failedWith.set(completion[0].status());
                    }
                    written[0]++;
                }
            };
            Task unmapper = () -> {
                awaitCondition(() -> a.peer(b.node()).mappedFiles() > 2, "a maps b's region");
                a.peer(b.node()).close(); // what a's progress agent does to a node that closed or died
            };
            runConcurrently(WAIT.multipliedBy(3), "unmap-race", writer, unmapper);
            assertThat(failedWith.get())
                    .as("attempt %d, after %d writes", attempt, written[0])
                    .isIn(
                            CompletionStatus.REMOTE_ACCESS_ERROR,
                            CompletionStatus.REMOTE_OPERATION_ERROR,
                            CompletionStatus.RETRY_EXCEEDED);
            link.a().queuePair().close();
            link.b().queuePair().close();
            link.a().completionQueue().close();
            link.b().completionQueue().close();
            target.close();
            source.close();
            fabrics.remove(b);
            b.close();
        }
    }

    /** Lines of /proc/self/maps that map a file under this test's directory. */
    private long mappingsOfDirectory() {
        try (var lines = Files.lines(Path.of("/proc/self/maps"))) {
            String prefix = directory.toString() + "/";
            return lines.filter(line -> line.contains(prefix)).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void importingAPeersKeyMapsItsRegionAtOnceWhenAskedTo() {
        ShmFabric a = open(FabricConfig.of("shm", "a")
                .withOption("shm.directory", directory.toString())
                .withOption(ShmFabricProvider.POPULATE_IMPORTED_OPTION, "true"));
        ShmFabric b = open("b");
        MemoryRegion target = b.register(1 << 20, EnumSet.of(Access.REMOTE_WRITE));
        assertThat(a.mappedPeerFiles()).isZero();
        a.importRemoteKey(target.remoteKey().toBytes());
        assertThat(a.mappedPeerFiles()).as("b's region, mapped by the import").isEqualTo(1);
    }

    @Test
    void byDefaultAnImportMapsNothingUntilFirstUse() {
        ShmFabric a = open("a");
        ShmFabric b = open("b");
        MemoryRegion target = b.register(1 << 20, EnumSet.of(Access.REMOTE_WRITE));
        a.importRemoteKey(target.remoteKey().toBytes());
        assertThat(a.mappedPeerFiles()).isZero();
    }

    @Test
    void importingOwnKeyMapsNothing() {
        ShmFabric a = open("a");
        MemoryRegion region = a.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        a.importRemoteKey(region.remoteKey().toBytes());
        assertThat(a.mappedPeerFiles()).isZero();
    }

    @Test
    void populatingChangesNoByte() {
        try (Arena arena = Arena.ofConfined()) {
            Path file = directory.resolve("populate-test");
            MemorySegment first = SharedMemory.create(file, 5 * SharedMemory.PAGE_BYTES + 100, arena);
            for (long at = 0; at < first.byteSize(); at += 8) {
                if (at + 8 <= first.byteSize()) {
                    first.set(ValueLayout.JAVA_LONG_UNALIGNED, at, at * 31 + 7);
                }
            }
            MemorySegment second = SharedMemory.mapExisting(file, arena);
            PageTables.populate(second);
            for (long at = 0; at + 8 <= second.byteSize(); at += 8) {
                assertThat(second.get(ValueLayout.JAVA_LONG_UNALIGNED, at)).isEqualTo(at * 31 + 7);
            }
            second.set(ValueLayout.JAVA_LONG_UNALIGNED, 4 * SharedMemory.PAGE_BYTES, -1L);
            assertThat(first.get(ValueLayout.JAVA_LONG_UNALIGNED, 4 * SharedMemory.PAGE_BYTES))
                    .as("the populated mapping writes the shared file")
                    .isEqualTo(-1L);
        }
    }
}
