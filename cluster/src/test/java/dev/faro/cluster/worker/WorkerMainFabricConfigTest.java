package dev.faro.cluster.worker;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(config.options()).containsEntry("net.bind", "10.123.4.2")
                .containsEntry("net.advertise", "10.123.4.2")
                .as("only address options are resolved").containsEntry("net.secret", "auto");
    }

    @Test
    void explicitAddressesAreKept() {
        FabricConfig config = WorkerMain.fabricConfig(welcome("0.0.0.0", "192.0.2.7", "s"), 0,
                InetAddress.ofLiteral("127.0.0.1"));
        assertThat(config.options()).containsEntry("net.bind", "0.0.0.0").containsEntry("net.advertise",
                "192.0.2.7");
    }
}
