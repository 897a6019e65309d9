package dev.faro.zerosided;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.FaultyLink;
import dev.faro.zerosided.link.InProcessNetwork;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.nic.SimulatedRcNic;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.ZeroSidedSwitch;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * An in-process zero-sided set-up for tests: one switch and {@code nics} PU NICs on an {@link InProcessNetwork} (or
 * links of another kind), every
 * link injecting the same seeded faults, all agents on one thread once {@link #start()}ed.
 */
final class Testbed implements AutoCloseable {

    final InProcessNetwork network = new InProcessNetwork();
    final Arena arena = Arena.ofShared();
    final ZeroSidedSwitch zeroSidedSwitch;
    final List<SimulatedRcNic> nics = new ArrayList<>();
    final List<FaultyLink> links = new ArrayList<>();
    private final Supplier<PacketLink> opener;
    private final FaultInjection faults;
    private final long delayNs;
    private int seedOffset;
    private AgentRunner runner;

    Testbed(SwitchConfig config, FaultInjection faults, long delayNs, int nicCount) {
        this(config, faults, delayNs, nicCount, null);
    }

    /** As above, with every link opened by {@code opener} (e.g. shared-memory links) instead of the in-process network. */
    Testbed(SwitchConfig config, FaultInjection faults, long delayNs, int nicCount, Supplier<PacketLink> opener) {
        this.opener = opener == null ? network::open : opener;
        this.faults = faults;
        this.delayNs = delayNs;
        this.zeroSidedSwitch = new ZeroSidedSwitch(link(), config);
        for (int i = 0; i < nicCount; i++) {
            nics.add(new SimulatedRcNic(link(), config.mtuBytes()));
        }
    }

    /** A new link of the network, with this testbed's faults (each link its own seed). */
    PacketLink link() {
        FaultInjection seeded = new FaultInjection(
                faults.seed() + 7919L * seedOffset++, faults.lossRate(), faults.reorderRate(), faults.duplicateRate());
        FaultyLink link = new FaultyLink(opener.get(), seeded, delayNs);
        links.add(link);
        return link;
    }

    /** Exposes a buffer on NIC {@code nic}, installs it in the switch and connects it; PSNs start at {@code psn}. */
    Exposed expose(int nic, int capacity, int itemBytes, boolean producer, int psn) {
        BufferExposure exposure = BufferExposure.allocate(nics.get(nic), arena, capacity, itemBytes, producer);
        int switchQp = zeroSidedSwitch.control().addEndpoint(exposure.endpoint(), psn);
        exposure.connect(zeroSidedSwitch.port(), switchQp, psn);
        return new Exposed(exposure, switchQp);
    }

    record Exposed(BufferExposure exposure, int switchQueuePair) {}

    void start() {
        List<IntSupplier> agents = new ArrayList<>();
        agents.add(zeroSidedSwitch::doWork);
        for (SimulatedRcNic nic : nics) {
            agents.add(nic::doWork);
        }
        runner = new AgentRunner("zerosided-testbed", agents);
    }

    AgentRunner runner() {
        return runner;
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
        zeroSidedSwitch.close();
        nics.forEach(SimulatedRcNic::close);
        arena.close();
    }
}
