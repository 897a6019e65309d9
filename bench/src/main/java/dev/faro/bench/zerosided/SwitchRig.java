package dev.faro.bench.zerosided;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.AgentRunner;
import dev.faro.zerosided.BufferExposure;
import dev.faro.zerosided.LinkDoorbell;
import dev.faro.zerosided.link.FaultyLink;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.nic.SimulatedRcNic;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.switching.ZeroSidedSwitch;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * A switch and PU NICs in one process, on packet links of one kind, for the experiments that study one property of
 * the switch (V2, V3, V6–V10): the switch's loop on its own thread, each NIC's on a thread of its own that sleeps on
 * the NIC's link when idle (NICs run beside their PUs, never on a PU thread), the PU threads the experiment's own. Each PU buffer is exposed on its own
 * NIC, so each has its own port and connection, as in the paper's figures.
 *
 * <p>Coordination code around the agents' loops.
 */
final class SwitchRig implements AutoCloseable {

    private final LinkKind linkKind;
    private final FaultInjection faults;
    private int links;
    private final SwitchConfig config;
    private final Arena arena = Arena.ofShared();
    private final ZeroSidedSwitch zeroSidedSwitch;
    private final PacketLink switchLink;
    private final List<SimulatedRcNic> nics = new ArrayList<>();
    private final List<PacketLink> nicLinks = new ArrayList<>();
    private final List<PacketLink> doorbellLinks = new ArrayList<>();
    private AgentRunner switchRunner;
    private final List<AgentRunner> nicRunners = new ArrayList<>();

    SwitchRig(LinkKind linkKind, SwitchConfig config) {
        this(linkKind, config, FaultInjection.NONE);
    }

    /** As above, every link injecting {@code faults} (each its own seed) into what it sends. */
    SwitchRig(LinkKind linkKind, SwitchConfig config, FaultInjection faults) {
        this.linkKind = linkKind;
        this.config = config;
        this.faults = faults;
        this.switchLink = open();
        this.zeroSidedSwitch = new ZeroSidedSwitch(switchLink, config);
    }

    SwitchControl control() {
        return zeroSidedSwitch.control();
    }

    ZeroSidedSwitch zeroSidedSwitch() {
        return zeroSidedSwitch;
    }

    /** A PU buffer on a NIC of its own, installed in the switch and connected, with its PU view. */
    record Buffer(int endpoint, ZeroSidedBuffer view) {}

    /**
     * Exposes a buffer of {@code capacity} items of {@code itemBytes} on a new NIC and installs it.
     *
     * @param doorbell whether the PU rings a doorbell (over a link of its own) on every push or pop
     */
    Buffer expose(int capacity, int itemBytes, boolean producer, boolean doorbell) {
        PacketLink nicLink = open();
        SimulatedRcNic nic = new SimulatedRcNic(nicLink, config.mtuBytes());
        nics.add(nic);
        nicLinks.add(nicLink);
        BufferExposure exposure = BufferExposure.allocate(nic, arena, capacity, itemBytes, producer);
        int endpoint = zeroSidedSwitch.control().addEndpoint(exposure.endpoint());
        exposure.connect(zeroSidedSwitch.port(), endpoint, 0);
        LinkDoorbell bell = null;
        if (doorbell) {
            PacketLink link = open();
            doorbellLinks.add(link);
            bell = new LinkDoorbell(
                    link, zeroSidedSwitch.port(), endpoint, exposure.endpoint().baseAddress());
        }
        return new Buffer(endpoint, exposure.view(bell));
    }

    private PacketLink open() {
        PacketLink link = linkKind.open();
        if (!faults.isEnabled()) {
            return link;
        }
        FaultInjection seeded = new FaultInjection(
                faults.seed() + 7919L * links++, faults.lossRate(), faults.reorderRate(), faults.duplicateRate());
        return new FaultyLink(link, seeded, 0);
    }

    /** Starts the switch's thread and the NICs' thread; expose every buffer before. */
    void start() {
        start(false);
    }

    /**
     * As {@link #start()}; with {@code yielding} the switch's thread and one thread for all NICs, idle, spin and
     * yield but never sleep. Otherwise each sleeps on its link when idle ({@link ZeroSidedSwitch#awaitWork}, {@link
     * PacketLink#awaitDatagram}) and the first packet sent to it wakes it; V3 compares the two on a doorbell's path,
     * which crosses four idle spells of the switch (doorbell, READ response, data ACK, head ACK).
     */
    void start(boolean yielding) {
        switchRunner = yielding
                ? new AgentRunner("zerosided-switch", List.of(zeroSidedSwitch::doWork), timeoutNs -> Thread.yield())
                : new AgentRunner("zerosided-switch", List.of(zeroSidedSwitch::doWork), zeroSidedSwitch::awaitWork);
        if (yielding) {
            List<IntSupplier> agents = new ArrayList<>();
            for (SimulatedRcNic nic : nics) {
                agents.add(nic::doWork);
            }
            nicRunners.add(new AgentRunner("zerosided-nics", agents, timeoutNs -> Thread.yield()));
            return;
        }
        for (int i = 0; i < nics.size(); i++) {
            nicRunners.add(new AgentRunner(
                    "zerosided-nic-" + i, List.of(nics.get(i)::doWork), nicLinks.get(i)::awaitDatagram));
        }
    }

    /** The first failure of the switch or a NIC, or null. */
    String failure() {
        if (switchRunner != null && switchRunner.failure() != null) {
            return "the switch failed: " + switchRunner.failure();
        }
        for (AgentRunner nicRunner : nicRunners) {
            if (nicRunner.failure() != null) {
                return "a NIC failed: " + nicRunner.failure();
            }
        }
        return zeroSidedSwitch.statistics().failure();
    }

    /** Throws when the switch or a NIC failed. */
    void check() {
        String failure = failure();
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public void close() {
        if (switchRunner != null) {
            switchRunner.close();
        }
        nicRunners.forEach(AgentRunner::close);
        zeroSidedSwitch.close();
        nics.forEach(SimulatedRcNic::close);
        doorbellLinks.forEach(PacketLink::close);
        arena.close();
    }
}
