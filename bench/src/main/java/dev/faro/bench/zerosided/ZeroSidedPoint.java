package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One measured point of {@code faro bench zerosided}: {@code flows} 1:1 flows of {@code itemBytes} items, each with
 * one producer thread (node 1) and one consumer thread (node 2), moved either by the switch (node 0) or by
 * {@code drivers} CPU driver threads on the producers' node.
 *
 * @param mode {@link #ZERO_SIDED}, {@link #CPU_DRIVEN}, {@link #FORWARDING} (the switch alone, against perfect NICs),
 *     or the name of one of {@link ZeroSidedExperiments#ALL}
 * @param flows concurrent flows (= producer threads = consumer threads)
 * @param drivers CPU driver threads (CPU-driven only)
 * @param itemBytes item size
 * @param capacity slots per buffer
 * @param maxBatchBytes the batching cap, for the switch and the drivers alike
 * @param warmupSeconds untimed time before the window
 * @param seconds the timed window
 * @param link the packet link between the switch and the NICs ({@code shm} or {@code udp})
 * @param runs the runs an experiment beyond Fig. 6 makes itself (a Fig. 6 point is one run)
 * @param pin whether the network's and the processing units' threads run on separate CPUs ({@link CorePlacement})
 * @param endpointWork hash iterations per unit of the endpoints' own work; 0: they only push and pop
 */
record ZeroSidedPoint(
        String mode,
        int flows,
        int drivers,
        int itemBytes,
        int capacity,
        int maxBatchBytes,
        double warmupSeconds,
        double seconds,
        String link,
        int runs,
        boolean pin,
        int endpointWork) {

    static final String ZERO_SIDED = "zero-sided";
    static final String CPU_DRIVEN = "cpu-driven";
    static final String FORWARDING = "forwarding";

    ObjectNode toJson() {
        return JsonNodeFactory.instance
                .objectNode()
                .put("mode", mode)
                .put("flows", flows)
                .put("drivers", drivers)
                .put("itemBytes", itemBytes)
                .put("capacity", capacity)
                .put("maxBatchBytes", maxBatchBytes)
                .put("warmupSeconds", warmupSeconds)
                .put("seconds", seconds)
                .put("link", link)
                .put("runs", runs)
                .put("pin", pin)
                .put("endpointWork", endpointWork);
    }

    static ZeroSidedPoint fromJson(JsonNode json) {
        return new ZeroSidedPoint(
                json.path("mode").asText(),
                json.path("flows").asInt(),
                json.path("drivers").asInt(),
                json.path("itemBytes").asInt(),
                json.path("capacity").asInt(),
                json.path("maxBatchBytes").asInt(),
                json.path("warmupSeconds").asDouble(),
                json.path("seconds").asDouble(),
                json.path("link").asText("shm"),
                json.path("runs").asInt(1),
                json.path("pin").asBoolean(false),
                json.path("endpointWork").asInt(0));
    }

    /** The label of this point's series: {@code zero-sided}, {@code cpu-driven (1 driver)}, ... */
    String series() {
        return mode.equals(CPU_DRIVEN) ? mode + " (" + drivers + (drivers == 1 ? " driver)" : " drivers)") : mode;
    }
}
