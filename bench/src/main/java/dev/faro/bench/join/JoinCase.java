package dev.faro.bench.join;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.join.radix.PartitionAssignment;
import dev.faro.join.radix.RadixJoinConfig;
import dev.faro.join.sortmerge.SortMergeJoinConfig;
import dev.faro.join.workload.JoinWorkload;
import java.util.Objects;

/**
 * One measured point of {@code faro bench join}: the workload, the join's settings, how many nodes' data it covers
 * and how often it runs. {@code distributed} runs the radix hash join across the round's nodes; otherwise node 0 runs
 * the single-process radix join over all {@code nodes} nodes' data (the reference, or with one thread the per-core
 * micro-benchmarks of the model). Travels as JSON in the task payload.
 *
 * @param distributed the distributed join (true) or the single-process one on node 0 (false)
 * @param sortMerge with {@code distributed}: the sort-merge join instead of the radix hash join
 * @param nodes the nodes whose data the case covers
 * @param workload the relations
 * @param config the join's settings (threads: per node, or in all for the single-process join)
 * @param warmups untimed runs first (JIT)
 * @param runs timed runs
 * @param bandwidthBytes bytes rank 0 puts to rank 1 to measure the fabric's bandwidth first (0: none)
 * @param bandwidthCap 0, or the emulated injection bandwidth per node in bytes per second
 *     ({@link dev.faro.join.rma.RmaConfig#bandwidthCapBytesPerSecond})
 */
record JoinCase(
        boolean distributed,
        boolean sortMerge,
        int nodes,
        JoinWorkload workload,
        RadixJoinConfig config,
        int warmups,
        int runs,
        long bandwidthBytes,
        long bandwidthCap) {

    JoinCase {
        Objects.requireNonNull(workload, "workload is null");
        Objects.requireNonNull(config, "config is null");
        if (nodes < 1 || warmups < 0 || runs < 1 || bandwidthBytes < 0 || bandwidthCap < 0) {
            throw new IllegalArgumentException("bad case: nodes=" + nodes + " warmups=" + warmups + " runs=" + runs);
        }
    }

    /** The sort-merge join's settings for this case: the same threads, sampled splitters for skewed keys. */
    SortMergeJoinConfig sortMergeConfig() {
        return SortMergeJoinConfig.defaults(config.threads()).withSampledSplitters(workload.zipf() > 0);
    }

    ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("distributed", distributed);
        json.put("sortMerge", sortMerge);
        json.put("nodes", nodes);
        json.put("innerPerNode", workload.innerPerNode());
        json.put("outerRatio", workload.outerRatio());
        json.put("selectivity", workload.selectivity());
        json.put("zipf", workload.zipf());
        json.put("seed", workload.seed());
        json.put("threads", config.threads());
        json.put("networkBits", config.networkBits());
        json.put("localBits", config.localBits());
        json.put("buffersPerPartition", config.buffersPerPartition());
        json.put("bufferBytes", config.bufferBytes());
        json.put("assignment", config.assignment().name());
        json.put("warmups", warmups);
        json.put("runs", runs);
        json.put("bandwidthBytes", bandwidthBytes);
        json.put("bandwidthCap", bandwidthCap);
        return json;
    }

    static JoinCase fromJson(JsonNode json) {
        JoinWorkload workload = new JoinWorkload(
                json.path("innerPerNode").asLong(),
                json.path("outerRatio").asInt(),
                json.path("selectivity").asDouble(),
                json.path("zipf").asDouble(),
                json.path("seed").asLong());
        RadixJoinConfig config = new RadixJoinConfig(
                json.path("threads").asInt(),
                json.path("networkBits").asInt(),
                json.path("localBits").asInt(),
                json.path("buffersPerPartition").asInt(),
                json.path("bufferBytes").asInt(),
                PartitionAssignment.valueOf(json.path("assignment").asText()));
        return new JoinCase(
                json.path("distributed").asBoolean(),
                json.path("sortMerge").asBoolean(),
                json.path("nodes").asInt(),
                workload,
                config,
                json.path("warmups").asInt(),
                json.path("runs").asInt(),
                json.path("bandwidthBytes").asLong(),
                json.path("bandwidthCap").asLong());
    }
}
