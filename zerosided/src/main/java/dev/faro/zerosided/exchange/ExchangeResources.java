package dev.faro.zerosided.exchange;

import dev.faro.zerosided.AgentRunner;
import dev.faro.zerosided.BufferExposure;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.nic.SimulatedRcNic;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchEndpoint;
import dev.faro.zerosided.switching.ZeroSidedSwitch;
import dev.faro.zerosided.unit.SharedConsumerRing;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/**
 * What one node holds for one exchange: its simulated NIC with the NIC's agent thread, a producer buffer per
 * (producing thread, group), the node's one consumer buffer when it receives, and at node 0 the exchange's switch with
 * its own thread. All of it lives exactly as long as the exchange (see {@link ZeroSidedTransport} for why per
 * exchange), except the packet links, which the node's {@link LinkPool} lends. Coordination code; thread-safe where noted.
 */
final class ExchangeResources implements AutoCloseable {

    /** One item is one engine buffer: a 32-byte shuffle header (its first int the fill level) and the payload. */
    static final int ITEM_BYTES = 32 << 10;
    /** Slots of a producer buffer: a thread can fill the next buffer of a group while the switch moves the last. */
    static final int PRODUCER_SLOTS = 4;
    /** Slots of the consumer buffer per receiving thread: one being decoded, the rest landing. */
    static final int CONSUMER_SLOTS_PER_THREAD = 4;
    /**
     * MTU 4096 (an item is 8 packets), batches up to 256 KiB (8 items: well within a link's 2,048 slots), polling a
     * waiting pointer every 20 µs (continuous polling burns a core per exchange on a shared host), 50 ms timeouts,
     * 200 retries (a dead PU fails its flow after about 10 s).
     */
    static final SwitchConfig SWITCH_CONFIG = new SwitchConfig(4096, 256 << 10, 20_000, 50_000_000, 200);

    private final Arena arena = Arena.ofShared();
    private final LinkPool links;
    private final PacketLink nicLink;
    private final PacketLink switchLink;
    private final SimulatedRcNic nic;
    private final BufferExposure[][] producers;
    private final ZeroSidedBuffer[][] producerViews;
    private final BufferExposure consumer;
    private final SharedConsumerRing consumerRing;
    private final ZeroSidedSwitch zeroSidedSwitch;
    private final String name;
    private volatile AgentRunner nicRunner;
    private volatile AgentRunner switchRunner;

    /**
     * Allocates and registers this node's buffers for {@code threads} producing threads and {@code groups} groups,
     * with a consumer buffer if {@code receives}, and opens the switch if {@code hostsSwitch}. Starts no thread.
     */
    ExchangeResources(LinkPool links, String name, int threads, int groups, boolean receives, boolean hostsSwitch) {
        this.links = links;
        this.name = name;
        this.nicLink = links.lend();
        this.nic = new SimulatedRcNic(nicLink, SWITCH_CONFIG.mtuBytes());
        if (hostsSwitch) {
            switchLink = links.lend();
            zeroSidedSwitch = new ZeroSidedSwitch(switchLink, SWITCH_CONFIG);
        } else {
            switchLink = null;
            zeroSidedSwitch = null;
        }
        this.producers = new BufferExposure[threads][groups];
        this.producerViews = new ZeroSidedBuffer[threads][groups];
        for (int t = 0; t < threads; t++) {
            for (int g = 0; g < groups; g++) {
                producers[t][g] = BufferExposure.allocate(nic, arena, PRODUCER_SLOTS, ITEM_BYTES, true);
                producerViews[t][g] = producers[t][g].view(null);
            }
        }
        if (receives) {
            int slots = Math.max(8, CONSUMER_SLOTS_PER_THREAD * threads);
            consumer = BufferExposure.allocate(nic, arena, slots, ITEM_BYTES, false);
            consumerRing = new SharedConsumerRing(consumer.segment(), slots, ITEM_BYTES);
        } else {
            consumer = null;
            consumerRing = null;
        }
    }

    /** The offset of slot {@code slot} in a buffer's segment. */
    static long slotOffset(ZeroSidedBuffer ring, int slot) {
        return ZeroSidedBufferDescriptor.SLOTS_OFFSET + (long) slot * ring.itemBytes();
    }

    /** This node's buffers as the switch's table needs them: the producers by thread then group, then the consumer. */
    List<SwitchEndpoint> endpoints() {
        List<SwitchEndpoint> endpoints = new ArrayList<>();
        for (BufferExposure[] byGroup : producers) {
            for (BufferExposure producer : byGroup) {
                endpoints.add(producer.endpoint());
            }
        }
        if (consumer != null) {
            endpoints.add(consumer.endpoint());
        }
        return endpoints;
    }

    /**
     * Connects each buffer's queue pair to the switch, whose queue pairs for this node's buffers are consecutive from
     * {@code firstQueuePair} in {@link #endpoints()} order, every connection starting at {@code firstPsn}; starts the
     * NIC.
     */
    void connect(int switchPort, int firstQueuePair, int firstPsn) {
        List<BufferExposure> all = new ArrayList<>();
        for (BufferExposure[] byGroup : producers) {
            all.addAll(List.of(byGroup));
        }
        if (consumer != null) {
            all.add(consumer);
        }
        for (int i = 0; i < all.size(); i++) {
            all.get(i).connect(switchPort, firstQueuePair + i, firstPsn);
        }
        nicRunner = new AgentRunner("zerosided-nic-" + name, List.of(nic::doWork), nicLink::awaitDatagram);
    }

    /** The switch (node 0 only, else null). */
    ZeroSidedSwitch zeroSidedSwitch() {
        return zeroSidedSwitch;
    }

    /** Starts the switch's thread (node 0, once every node's NIC is connected). */
    void startSwitch() {
        switchRunner = new AgentRunner(
                "zerosided-switch-" + name, List.of(zeroSidedSwitch::doWork), zeroSidedSwitch::awaitWork);
    }

    ZeroSidedBuffer[][] producerViews() {
        return producerViews;
    }

    /** The node's consumer buffer, or null when it receives nothing. */
    SharedConsumerRing consumerRing() {
        return consumerRing;
    }

    /** Why an agent of this exchange stopped, or null while all run. Any thread (racy reads). */
    String unsynchronizedAgentFailure() {
        AgentRunner runner = nicRunner;
        if (runner != null && runner.failure() != null) {
            return "this node's zero-sided NIC stopped: " + runner.failure();
        }
        runner = switchRunner;
        if (runner != null && runner.failure() != null) {
            return "the zero-sided switch stopped: " + runner.failure();
        }
        String flow =
                zeroSidedSwitch == null ? null : zeroSidedSwitch.statistics().failure();
        return flow == null ? null : "the zero-sided switch failed a flow: " + flow;
    }

    /**
     * Stops the threads, gives the switch's and the NIC's links back to the node's pool and frees the buffers (the NIC
     * and the switch hold nothing else).
     */
    @Override
    public void close() {
        if (switchRunner != null) {
            switchRunner.close();
        }
        if (nicRunner != null) {
            nicRunner.close();
        }
        if (switchLink != null) {
            links.giveBack(switchLink);
        }
        links.giveBack(nicLink);
        arena.close();
    }
}
