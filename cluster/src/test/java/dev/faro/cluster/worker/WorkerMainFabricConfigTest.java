package dev.faro.cluster.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Frame;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.MessageType;
import dev.faro.fabric.FabricConfig;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The fabric configuration a worker builds from the coordinator's welcome: {@code auto} addresses per host. */
class WorkerMainFabricConfigTest {

    private static Frame welcome(String bind, String advertise, String secret) {
        var fabric = Json.object().put("provider", "net").put("peerTimeoutMs", 4000);
        var options = fabric.putObject("options");
        options.put("net.bind", bind);
        options.put("net.advertise", advertise);
        options.put("net.secret", secret);
        return Frame.of(MessageType.WELCOME).put("fabric", fabric);
    }

    @Test
    void autoAddressOptionsBecomeTheAddressTheCoordinatorConnectionLeavesFrom() {
        InetAddress route = InetAddress.ofLiteral("10.123.4.2");
        FabricConfig config = WorkerMain.fabricConfig(welcome("auto", "auto", "auto"), 2, route);
        assertThat(config.nodeName()).isEqualTo("node-2");
        assertThat(config.options())
                .containsEntry("net.bind", "10.123.4.2")
                .containsEntry("net.advertise", "10.123.4.2")
                .as("only address options are resolved")
                .containsEntry("net.secret", "auto");
    }

    @Test
    void aNetFabricWithoutASecretGetsOneDerivedFromTheClusterSecret() {
        ClusterSecret secret = ClusterSecret.of("cluster secret");
        FabricConfig net = FabricConfig.of("net", "node-0");
        FabricConfig derived = WorkerMain.withNetSecret(net, secret, null);
        assertThat(derived.options().get("net.secret"))
                .as("derived, the same on every worker")
                .isEqualTo(WorkerMain.withNetSecret(net, ClusterSecret.of("cluster secret"), "")
                        .options()
                        .get("net.secret"))
                .isNotEqualTo(WorkerMain.withNetSecret(net, ClusterSecret.of("another"), null)
                        .options()
                        .get("net.secret"))
                .doesNotContain("cluster secret")
                .hasSize(64);
        assertThat(WorkerMain.withNetSecret(net.withOption("net.secret", "given"), secret, null)
                        .options())
                .containsEntry("net.secret", "given");
        assertThat(WorkerMain.withNetSecret(net, secret, "from-environment").options())
                .as("FARO_NET_SECRET wins")
                .doesNotContainKey("net.secret");
        assertThat(WorkerMain.withNetSecret(FabricConfig.of("shm", "node-0"), secret, null)
                        .options())
                .doesNotContainKey("net.secret");
    }

    @Test
    void explicitAddressesAreKept() {
        FabricConfig config =
                WorkerMain.fabricConfig(welcome("0.0.0.0", "192.0.2.7", "s"), 0, InetAddress.ofLiteral("127.0.0.1"));
        assertThat(config.options()).containsEntry("net.bind", "0.0.0.0").containsEntry("net.advertise", "192.0.2.7");
    }
}
