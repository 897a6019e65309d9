package dev.faro.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;

/**
 * A session setup task: ran on every node once and replayed, in order, on each replacement worker.
 *
 * @param type the task type
 * @param payloads the payload of each node, by node (captured when the task was added)
 * @param timeout how long one node may take
 */
record SetupTask(String type, List<JsonNode> payloads, Duration timeout) {

    SetupTask {
        payloads = List.copyOf(payloads);
    }
}
