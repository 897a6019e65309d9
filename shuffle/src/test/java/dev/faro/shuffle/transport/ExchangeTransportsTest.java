package dev.faro.shuffle.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExchangeTransportsTest {

    @TempDir
    Path shm;

    @Test
    void theBuiltInTransportsComeFirstInReportOrder() {
        assertThat(ExchangeTransports.names())
                .startsWith(
                        "SESQ/SR",
                        "MESQ/SR",
                        "SEMQ/SR",
                        "MEMQ/SR",
                        "SEMQ/RD",
                        "MEMQ/RD",
                        "SEMQ/WR",
                        "MEMQ/WR",
                        "TCP sockets")
                .doesNotHaveDuplicates();
    }

    @Test
    void namesResolveIgnoringCaseSpacesAndSeparators() {
        assertThat(ExchangeTransports.resolve("mesq_sr")).isEqualTo("MESQ/SR");
        assertThat(ExchangeTransports.resolve(" MEMQ-wr ")).isEqualTo("MEMQ/WR");
        assertThat(ExchangeTransports.resolve("tcp")).isEqualTo("TCP sockets");
        assertThat(ExchangeTransports.resolve("tcp_sockets")).isEqualTo("TCP sockets");
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        assertThatThrownBy(() -> ExchangeTransports.resolve("carrier pigeon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown exchange transport 'carrier pigeon'; known: SESQ/SR, MESQ/SR,")
                .hasMessageContaining("TCP sockets");
    }

    @Test
    void createMakesTheNamedTransportForTheNode() {
        LocalPeerExchange.Group peers = LocalPeerExchange.group(1, Duration.ofSeconds(5));
        try (Fabric fabric =
                        Fabrics.open(FabricConfig.of("shm", "registry").withOption("shm.directory", shm.toString()));
                TransportNode.Shared shared = new TransportNode.Shared()) {
            TransportNode node = TransportNode.of(fabric, peers.member(0), SharedSecret.of("a", "b"), shared);
            ExchangeTransport design = ExchangeTransports.create("memq_rd", node);
            assertThat(design).isInstanceOf(DesignTransport.class);
            assertThat(design.name()).isEqualTo("MEMQ/RD");
            assertThat(design.peers()).isSameAs(node.peers());
            ExchangeTransport tcp = ExchangeTransports.create("tcp", node);
            assertThat(tcp).isInstanceOf(TcpSocketTransport.class);
        }
    }

    @Test
    void sharedObjectsAreMadeOnceAndClosedNewestFirst() {
        List<String> closed = new ArrayList<>();
        TransportNode.Shared shared = new TransportNode.Shared();
        AutoCloseable first = shared.get("a", () -> () -> closed.add("a"));
        assertThat(shared.get("a", () -> {
                    throw new AssertionError("made twice");
                }))
                .isSameAs(first);
        shared.get("b", () -> () -> closed.add("b"));
        shared.close();
        assertThat(closed).containsExactly("b", "a");
        assertThatThrownBy(() -> shared.get("c", () -> () -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the node has stopped");
    }
}
