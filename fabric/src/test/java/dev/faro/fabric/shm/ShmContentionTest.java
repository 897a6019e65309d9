package dev.faro.fabric.shm;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Completion;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricTesting.RcLink;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contention model on real {@code shm} nodes: two senders SEND to one node at once through a capped port; every
 * byte arrives, each sender's messages arrive in its order, and the port was reserved for at least all those bytes at
 * the cap (read from the port's word, on the model's clock; nothing is timed). Without the option the same traffic
 * leaves the port's word untouched.
 */
class ShmContentionTest {

    private static final int MESSAGE = 16 * 1024;
    private static final int MESSAGES = 24;
    private static final long BANDWIDTH = 64L << 20;

    private Path directory;
    private final List<ShmFabric> fabrics = new ArrayList<>();

    @BeforeEach
    void createDirectory() throws IOException {
        directory = ShmDirectories.createFresh();
    }

    @AfterEach
    void closeNodes() {
        fabrics.forEach(ShmFabric::close);
        ShmDirectories.deleteRecursively(directory);
    }

    private ShmFabric open(String name, boolean contention) {
        FabricConfig config = FabricConfig.of("shm", name).withOption("shm.directory", directory.toString());
        if (contention) {
            config = config.withOption(ShmFabricProvider.PORT_BANDWIDTH_OPTION, "64m")
                    .withOption(ShmFabricProvider.INPUT_BUFFER_OPTION, "4k");
        }
        ShmFabric fabric = (ShmFabric) new ShmFabricProvider().open(config);
        fabrics.add(fabric);
        return fabric;
    }

    @Test
    void twoSendersShareTheCappedPortAndEveryMessageArrivesInOrder() throws InterruptedException {
        ShmFabric destination = open("d", true);
        long before = System.nanoTime();
        sendFromTwoNodes(destination, open("s1", true), open("s2", true));
        long reserved = NodeDescriptor.ingressFree(destination.nodeFile()) - before;
        long atTheCap = (long) (2.0 * MESSAGES * MESSAGE * 1e9 / BANDWIDTH);
        assertThat(reserved)
                .as("the port's word covers both senders' bytes at 64 MiB/s")
                .isGreaterThanOrEqualTo(atTheCap);
    }

    @Test
    void withoutTheOptionNothingIsModelled() throws InterruptedException {
        ShmFabric destination = open("d", false);
        assertThat(destination.contention).isNull();
        sendFromTwoNodes(destination, open("s1", false), open("s2", false));
        assertThat(NodeDescriptor.ingressFree(destination.nodeFile())).isZero();
    }

    private void sendFromTwoNodes(ShmFabric destination, ShmFabric first, ShmFabric second)
            throws InterruptedException {
        ShmFabric[] senders = {first, second};
        RcLink[] links = new RcLink[2];
        MemoryRegion[] targets = new MemoryRegion[2];
        MemoryRegion[] sources = new MemoryRegion[2];
        for (int s = 0; s < 2; s++) {
            links[s] = connectRc(senders[s], destination, MESSAGES, MESSAGES);
            targets[s] = destination.register((long) MESSAGES * MESSAGE, LOCAL_WRITE);
            sources[s] = senders[s].register((long) MESSAGES * MESSAGE, ALL_RIGHTS);
            for (int m = 0; m < MESSAGES; m++) {
                links[s].b().queuePair().postReceive(m, targets[s], (long) m * MESSAGE, MESSAGE);
                sources[s].segment().set(ValueLayout.JAVA_LONG_UNALIGNED, (long) m * MESSAGE, s * 1000L + m);
                sources[s].segment().set(ValueLayout.JAVA_LONG_UNALIGNED, (long) m * MESSAGE + MESSAGE - 8, -m);
            }
        }
        runConcurrently(
                Duration.ofSeconds(30),
                "contending senders",
                () -> post(links[0], sources[0]),
                () -> post(links[1], sources[1]));
        for (int s = 0; s < 2; s++) {
            List<Completion> sent = awaitCompletions(links[s].a().completionQueue(), MESSAGES, "sends");
            List<Completion> received = awaitCompletions(links[s].b().completionQueue(), MESSAGES, "receives");
            for (int m = 0; m < MESSAGES; m++) {
                assertThat(sent.get(m).status()).isEqualTo(CompletionStatus.SUCCESS);
                assertSuccess(received.get(m), m, Opcode.RECEIVE);
                assertThat(received.get(m).byteLength()).isEqualTo(MESSAGE);
                assertThat(targets[s].segment().get(ValueLayout.JAVA_LONG_UNALIGNED, (long) m * MESSAGE))
                        .as("sender %d message %d, first word", s, m)
                        .isEqualTo(s * 1000L + m);
                assertThat(targets[s].segment().get(ValueLayout.JAVA_LONG_UNALIGNED, (long) m * MESSAGE + MESSAGE - 8))
                        .as("sender %d message %d, last word", s, m)
                        .isEqualTo(-m);
            }
        }
    }

    private static void post(RcLink link, MemoryRegion source) {
        WorkRequest request = new WorkRequest();
        for (int m = 0; m < MESSAGES; m++) {
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(m)
                            .opcode(Opcode.SEND)
                            .local(source, (long) m * MESSAGE, MESSAGE));
        }
    }
}
