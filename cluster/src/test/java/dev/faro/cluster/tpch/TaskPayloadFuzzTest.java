package dev.faro.cluster.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.protocol.ProtocolException;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the task payloads a worker decodes ({@link TpchLoadTask#fromJson}, {@link QueryTask#fromJson} with its
 * JSON physical plan) on arbitrary JSON. The property: a payload decodes into a valid task, which encodes to the
 * same JSON again, or fails with {@link ProtocolException}, never another exception. Input: the first byte chooses
 * the task ({@code tpch.load} when even, {@code query} when odd); the rest is the payload's JSON text (text that is not
 * JSON never reaches a handler: the frame decoder refuses it). Crash inputs are kept in
 * {@code TaskPayloadFuzzTestInputs}.
 */
class TaskPayloadFuzzTest {

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        JsonNode payload;
        try {
            payload = Json.MAPPER.readTree(Arrays.copyOfRange(input, 1, input.length));
        } catch (IOException notJson) {
            return;
        }
        try {
            if ((input[0] & 1) == 0) {
                TpchLoadTask task = TpchLoadTask.fromJson(payload);
                assertThat(task.scaleFactor()).isPositive();
                assertThat(TpchLoadTask.fromJson(task.toJson())).isEqualTo(task);
            } else {
                QueryTask task = QueryTask.fromJson(payload);
                assertThat(task.threads()).isBetween(1, QueryTask.MAX_THREADS);
                assertThat(task.plan().outputSchema()).isNotNull();
                assertThat(QueryTask.fromJson(task.toJson()).toJson()).isEqualTo(task.toJson());
            }
        } catch (ProtocolException expected) {
            // the documented outcome of a payload that is not a task
        }
    }
}
