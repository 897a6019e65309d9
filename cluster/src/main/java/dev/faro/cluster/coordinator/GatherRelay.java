package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.faro.cluster.protocol.Frame;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.MessageType;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The coordinator's half of the relayed {@code PeerExchange}: collects each round's GATHER contributions per key and
 * sends every member the GATHERED answer once all nodes contributed. Any number of keys may be open at once per
 * round. Contributions for a round that has ended are dropped (its tasks were cancelled, which fails their waits).
 *
 * <p>Threads: the connections' reader threads call {@link #onGather}; the round's thread calls {@link #open} and
 * {@link #close}. A monitor guards the map; answers are sent outside it.
 */
final class GatherRelay {

    private record Round(List<WorkerConnection> members, Map<String, byte[][]> contributions) {}

    // Guarded by this.
    private final Map<Long, Round> rounds = new HashMap<>();
    private final List<ExchangeListener> listeners = new CopyOnWriteArrayList<>();

    /** Tells {@code listener} about every completed all-gather from now on. */
    void addListener(ExchangeListener listener) {
        listeners.add(listener);
    }

    /** Starts relaying for task {@code taskId}, run by {@code members} (indexed by node). */
    synchronized void open(long taskId, List<WorkerConnection> members) {
        rounds.put(taskId, new Round(List.copyOf(members), new HashMap<>()));
    }

    /** Stops relaying for {@code taskId}; pending keys are dropped. */
    synchronized void close(long taskId) {
        rounds.remove(taskId);
    }

    /** A GATHER from {@code from}: records it and, when it completes the key, answers every member. */
    void onGather(WorkerConnection from, Frame frame) {
        long taskId = frame.number("taskId");
        String key = frame.text("key");
        byte[] value;
        try {
            value = frame.required("value").binaryValue();
        } catch (IOException e) {
            from.lose(dev.faro.cluster.ClusterException.Kind.WORKER_DIED, "sent a malformed GATHER for '" + key + "'");
            return;
        }
        byte[][] complete;
        List<WorkerConnection> members;
        synchronized (this) {
            Round round = rounds.get(taskId);
            if (round == null) {
                return;
            }
            members = round.members();
            byte[][] values = round.contributions().computeIfAbsent(key, k -> new byte[members.size()][]);
            int node = from.node();
            if (node >= values.length || members.get(node) != from) {
                return; // not a member of this round (a replayed setup task on one node): its wait times out
            }
            if (values[node] != null) {
                throw new IllegalStateException(from.describe() + " contributed twice to exchange '" + key + "'");
            }
            values[node] = value;
            for (byte[] contribution : values) {
                if (contribution == null) {
                    return;
                }
            }
            round.contributions().remove(key);
            complete = values;
        }
        ArrayNode array = Json.MAPPER.createArrayNode();
        for (byte[] contribution : complete) {
            array.add(contribution);
        }
        Frame answer = Frame.of(MessageType.GATHERED)
                .put("taskId", taskId)
                .put("key", key)
                .put("values", array);
        for (WorkerConnection member : members) {
            member.send(answer);
        }
        for (ExchangeListener listener : listeners) {
            try {
                listener.onExchanged(taskId, key, complete);
            } catch (RuntimeException e) {
                System.err.println("faro coordinator: an exchange listener failed on '" + key + "': " + e);
            }
        }
    }
}
