package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One point of {@code faro bench middleware}: the paper's synthetic 2-stage shuffle on {@code processes} worker
 * JVMs of {@code workersPerProcess} workers each, over the middleware on the fabric ({@code fabric}) or over NIO
 * sockets ({@code nio}). Travels to the workers as JSON (the payload of {@link MiddlewareBenchHandler}).
 *
 * @param transport {@code fabric} or {@code nio}
 * @param rowsPerProcess integers each process generates (the paper: 5 M)
 * @param ringBytes ring size (the paper: 64 KB)
 * @param writeThreshold the middleware's write threshold (the paper: 16 KB); NIO writes its buffer at the same
 *     threshold
 */
record MiddlewareCase(
        String transport,
        int processes,
        int workersPerProcess,
        long rowsPerProcess,
        int ringBytes,
        int writeThreshold) {

    static final String FABRIC = "fabric";
    static final String NIO = "nio";

    MiddlewareCase {
        Objects.requireNonNull(transport, "transport is null");
        if (!transport.equals(FABRIC) && !transport.equals(NIO)) {
            throw new IllegalArgumentException("transport must be fabric or nio: " + transport);
        }
    }

    MiddlewareCase withTransport(String newTransport) {
        return new MiddlewareCase(
                newTransport, processes, workersPerProcess, rowsPerProcess, ringBytes, writeThreshold);
    }

    MiddlewareCase withWorkers(int workers) {
        return new MiddlewareCase(transport, processes, workers, rowsPerProcess, ringBytes, writeThreshold);
    }

    MiddlewareCase withWriteThreshold(int bytes) {
        return new MiddlewareCase(transport, processes, workersPerProcess, rowsPerProcess, ringBytes, bytes);
    }

    String label() {
        return transport + " " + processes + "x" + workersPerProcess + " threshold " + writeThreshold + " B";
    }

    ObjectNode toJson() {
        return JsonNodeFactory.instance
                .objectNode()
                .put("transport", transport)
                .put("processes", processes)
                .put("workersPerProcess", workersPerProcess)
                .put("rowsPerProcess", rowsPerProcess)
                .put("ringBytes", ringBytes)
                .put("writeThreshold", writeThreshold);
    }

    static MiddlewareCase fromJson(JsonNode json) {
        return new MiddlewareCase(
                json.path("transport").asText(),
                json.path("processes").asInt(),
                json.path("workersPerProcess").asInt(),
                json.path("rowsPerProcess").asLong(),
                json.path("ringBytes").asInt(),
                json.path("writeThreshold").asInt());
    }
}
