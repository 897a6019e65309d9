package dev.faro.zerosided.switching;

import dev.faro.zerosided.packet.Psn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The switch's control plane: installs endpoints (the static table) and flows, and changes flows while they run (add
 * or remove a consumer, add a producer, remove a flow). Every change is a command the switch's loop applies between
 * packets, in the order given, so a flow never sees half a change. Producers are never told about a change: their
 * buffers and connections stay as they are (elasticity without producer-side change).
 *
 * <p>Every argument is checked here, on the caller's side, against the endpoints and flows installed through this
 * control plane: a bad one is refused with a one-line {@link IllegalArgumentException} and the switch never sees it
 * (a command that failed on the switch's thread would stop its loop).
 *
 * <p>Coordination code: any thread; the methods return at once, before the switch has applied the change.
 */
public final class SwitchControl {

    private final ZeroSidedSwitch target;
    private int endpoints;
    private int flows;
    // caller-side copies of what the switch was told, to check arguments before enqueuing them
    private final boolean[] producerEndpoint = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    private final List<Boolean> loadBalancing = new ArrayList<>();

    SwitchControl(ZeroSidedSwitch target) {
        this.target = target;
    }

    /**
     * Adds {@code endpoint} to the static table.
     *
     * @return the switch's queue pair number for the endpoint's connection: the PU's NIC connects its queue pair to it
     *     (at the switch's port, first PSN 0)
     * @throws IllegalStateException when {@link ZeroSidedSwitch#MAXIMUM_ENDPOINTS} are installed
     */
    public int addEndpoint(SwitchEndpoint endpoint) {
        return addEndpoint(endpoint, 0);
    }

    /**
     * Adds {@code endpoint} to the static table; the switch's first request on its connection carries {@code firstPsn}
     * (the PU's NIC must expect it).
     */
    public synchronized int addEndpoint(SwitchEndpoint endpoint, int firstPsn) {
        Objects.requireNonNull(endpoint, "endpoint is null");
        if (endpoints == ZeroSidedSwitch.MAXIMUM_ENDPOINTS) {
            throw new IllegalStateException("too many endpoints: maximum=" + ZeroSidedSwitch.MAXIMUM_ENDPOINTS);
        }
        int index = endpoints++;
        producerEndpoint[index] = endpoint.producer();
        target.enqueue(s -> {
            s.registers.port[index] = endpoint.port();
            s.registers.queuePair[index] = endpoint.queuePair();
            s.registers.remoteKey[index] = endpoint.remoteKey();
            s.registers.baseAddress[index] = endpoint.baseAddress();
            s.registers.capacity[index] = endpoint.capacity();
            s.registers.itemBytes[index] = endpoint.itemBytes();
            s.registers.producer[index] = endpoint.producer();
            s.registers.nextPsn[index] = firstPsn & Psn.MASK;
            s.registers.endpointCount = Math.max(s.registers.endpointCount, index + 1);
        });
        return index;
    }

    /**
     * Installs a key-based shuffle: {@code producerBuffers[p][c]} is producer p's buffer for consumer c, and
     * {@code consumers[c]} consumer c's one buffer. A 1:1 flow is the 1×1 case.
     *
     * @return the flow's id
     */
    public synchronized int installShuffle(int[][] producerBuffers, int[] consumers) {
        Objects.requireNonNull(producerBuffers, "producerBuffers is null");
        for (int[] buffers : producerBuffers) {
            checkEndpoints(buffers, true);
        }
        checkEndpoints(consumers, false);
        int[][] byConsumer = new int[consumers.length][producerBuffers.length];
        for (int p = 0; p < producerBuffers.length; p++) {
            if (producerBuffers[p].length != consumers.length) {
                throw new IllegalArgumentException("producer " + p + " has " + producerBuffers[p].length
                        + " buffers for " + consumers.length + " consumers");
            }
            for (int c = 0; c < consumers.length; c++) {
                byConsumer[c][p] = producerBuffers[p][c];
            }
        }
        int flow = newFlow(false);
        int[] consumerCopy = consumers.clone();
        target.enqueue(s -> {
            for (int c = 0; c < consumerCopy.length; c++) {
                startThread(s, consumerCopy[c], flow, byConsumer[c]);
            }
        });
        return flow;
    }

    /** Installs a 1:1 flow from {@code producerBuffer} to {@code consumerBuffer}. */
    public int installOneToOne(int producerBuffer, int consumerBuffer) {
        return installShuffle(new int[][] {{producerBuffer}}, new int[] {consumerBuffer});
    }

    /**
     * Installs a load-balancing flow: any item of any of {@code producers} may go to any of {@code consumers}.
     *
     * @return the flow's id
     */
    public synchronized int installLoadBalance(int[] producers, int[] consumers) {
        checkEndpoints(producers, true);
        checkEndpoints(consumers, false);
        int flow = newFlow(true);
        int[] producerCopy = producers.clone();
        int[] consumerCopy = consumers.clone();
        target.enqueue(s -> {
            for (int consumer : consumerCopy) {
                startThread(s, consumer, flow, producerCopy);
            }
        });
        return flow;
    }

    /**
     * Installs a replication flow: every item of any of {@code producers} goes to every one of {@code consumers}, and
     * all consumers see the items in the same order. The consumer buffers must be dedicated to the flow and empty.
     *
     * @return the flow's id
     */
    public synchronized int installReplication(int[] producers, int[] consumers) {
        checkEndpoints(producers, true);
        checkEndpoints(consumers, false);
        int flow = newFlow(false);
        int[] producerCopy = producers.clone();
        int[] consumerCopy = consumers.clone();
        target.enqueue(s -> {
            for (int p : producerCopy) {
                s.registers.threadKind[p] = SwitchRegisters.REPLICATION_THREAD;
                s.registers.consumersOf[p] = consumerCopy.clone();
                s.registers.threadFlow[p] = flow;
                s.registers.producersOf[p] = producerCopy.clone();
                s.registers.removing[p] = false;
                s.registers.threadState[p] = ZeroSidedSwitch.THREAD_IDLE;
                s.recirculate(p);
            }
        });
        return flow;
    }

    /**
     * Sets flow {@code flow}'s QoS weight (default 1): while flows compete, each gets a share of the switch's transfers
     * in proportion to its weight. Takes effect at the next transfers; the PUs are not told.
     *
     * @throws IllegalArgumentException if the weight is not positive and finite, or the flow unknown
     */
    public synchronized void setWeight(int flow, double weight) {
        checkFlow(flow, false);
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight must be positive: weight=" + weight);
        }
        target.enqueue(s -> s.qos.setWeight(flow, weight));
    }

    /**
     * Adds {@code consumer} to load-balancing flow {@code flow} while it runs: it gets a switch thread over the flow's
     * producers. The producers are not told.
     */
    public synchronized void addConsumer(int flow, int consumer) {
        checkFlow(flow, true);
        checkEndpoint(consumer, false);
        target.enqueue(s -> {
            int[] producers = null;
            for (int c = 0; c < s.registers.endpointCount; c++) {
                if (s.registers.threadFlow[c] == flow
                        && s.registers.producersOf[c] != null
                        && !s.registers.removing[c]) {
                    producers = s.registers.producersOf[c];
                    break;
                }
            }
            startThread(s, consumer, flow, producers == null ? new int[0] : producers);
        });
    }

    /**
     * Removes {@code consumer} from its flow while the flow runs: its switch thread finishes the transfer it has
     * started (so nothing is lost or duplicated) and then stops; the items already in its buffer stay there for it.
     */
    public synchronized void removeConsumer(int consumer) {
        checkEndpoint(consumer, false);
        target.enqueue(s -> {
            s.registers.removing[consumer] = true;
            s.recirculate(consumer);
        });
    }

    /** Adds producer buffer {@code producer} to every switch thread of load-balancing flow {@code flow}. */
    public synchronized void addProducer(int flow, int producer) {
        checkFlow(flow, true);
        checkEndpoint(producer, true);
        target.enqueue(s -> {
            for (int c = 0; c < s.registers.endpointCount; c++) {
                if (s.registers.threadFlow[c] == flow && s.registers.producersOf[c] != null) {
                    int[] grown = Arrays.copyOf(s.registers.producersOf[c], s.registers.producersOf[c].length + 1);
                    grown[grown.length - 1] = producer;
                    s.registers.producersOf[c] = grown;
                }
            }
        });
    }

    /** Removes flow {@code flow}: each of its switch threads stops after its current transfer. */
    public synchronized void removeFlow(int flow) {
        checkFlow(flow, false);
        target.enqueue(s -> {
            for (int c = 0; c < s.registers.endpointCount; c++) {
                if (s.registers.threadFlow[c] == flow && s.registers.producersOf[c] != null) {
                    s.registers.removing[c] = true;
                    s.recirculate(c);
                }
            }
        });
    }

    /**
     * Whether every switch thread of {@code flow} has told its consumer that the stream ended (approximate: a racy
     * read of the switch's registers).
     */
    public boolean unsynchronizedFinished(int flow) {
        boolean any = false;
        for (int c = 0; c < target.registers.endpointCount; c++) {
            if (target.registers.threadFlow[c] == flow
                    && target.registers.producersOf[c] != null
                    && !target.registers.removing[c]) {
                any = true;
                if (target.registers.threadState[c] != ZeroSidedSwitch.THREAD_DONE) {
                    return false;
                }
            }
        }
        return any;
    }

    /**
     * The items delivered so far to each of {@code consumers}, read by the switch's thread between packets, so all of
     * them at one instant and after every change requested before this call.
     */
    public CompletableFuture<long[]> itemsDelivered(int... consumers) {
        int[] copy = consumers.clone();
        CompletableFuture<long[]> result = new CompletableFuture<>();
        target.enqueue(s -> {
            long[] counts = new long[copy.length];
            for (int i = 0; i < copy.length; i++) {
                counts[i] = s.registers.itemsDelivered[copy[i]];
            }
            result.complete(counts);
        });
        return result;
    }

    /** Items the switch has delivered to consumer buffer {@code consumer} so far (approximate). */
    public long unsynchronizedItemsDelivered(int consumer) {
        return target.registers.itemsDelivered[consumer];
    }

    /** One line per endpoint with its registers, for diagnosing a stalled flow (approximate). */
    public String unsynchronizedDescribe() {
        StringBuilder text = new StringBuilder();
        ZeroSidedSwitch s = target;
        for (int e = 0; e < s.registers.endpointCount; e++) {
            text.append(String.format(
                    "endpoint %d %s head=%d tail=%d ended=%b psn=%d op=%d opPsn=%d packets=%d thread=%d lock=%d"
                            + " state=%d retries=%d%n",
                    e,
                    s.registers.producer[e] ? "producer" : "consumer",
                    s.registers.head[e],
                    s.registers.tail[e],
                    s.registers.ended[e],
                    s.registers.nextPsn[e],
                    s.registers.operation[e],
                    s.registers.operationPsn[e],
                    s.registers.operationPackets[e],
                    s.registers.operationThread[e],
                    s.registers.lockOwner[e],
                    s.registers.threadState[e],
                    s.registers.retries[e]));
        }
        return text.toString();
    }

    private int newFlow(boolean balancing) {
        loadBalancing.add(balancing);
        return flows++;
    }

    private void checkFlow(int flow, boolean mustBalance) {
        if (flow < 0 || flow >= flows) {
            throw new IllegalArgumentException("no flow " + flow + ": installed flows are 0.." + (flows - 1));
        }
        if (mustBalance && !loadBalancing.get(flow)) {
            throw new IllegalArgumentException("flow " + flow + " is not a load-balancing flow");
        }
    }

    private void checkEndpoints(int[] list, boolean producers) {
        Objects.requireNonNull(list, producers ? "producers is null" : "consumers is null");
        if (list.length == 0) {
            throw new IllegalArgumentException(producers ? "no producer buffers" : "no consumer buffers");
        }
        for (int endpoint : list) {
            checkEndpoint(endpoint, producers);
        }
    }

    private void checkEndpoint(int endpoint, boolean producer) {
        if (endpoint < 0 || endpoint >= endpoints) {
            throw new IllegalArgumentException(
                    "no endpoint " + endpoint + ": installed endpoints are 0.." + (endpoints - 1));
        }
        if (producerEndpoint[endpoint] != producer) {
            throw new IllegalArgumentException("endpoint " + endpoint + " is a "
                    + (producer ? "consumer buffer, not a producer's" : "producer buffer, not a consumer's"));
        }
    }

    private static void startThread(ZeroSidedSwitch s, int consumer, int flow, int[] producers) {
        s.registers.threadFlow[consumer] = flow;
        s.registers.producersOf[consumer] = producers.clone();
        s.registers.removing[consumer] = false;
        s.registers.threadState[consumer] = ZeroSidedSwitch.THREAD_IDLE;
        s.recirculate(consumer);
    }
}
