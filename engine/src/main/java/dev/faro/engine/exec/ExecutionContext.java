package dev.faro.engine.exec;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.setup.PeerExchange;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * What one node needs to execute a plan: its index and the node count, its {@link Catalog}, the worker threads per
 * pipeline and, when there is more than one node, the fabric, the peer exchange used to open shuffles, the endpoint
 * design (with optional configuration tweaks) and a query id naming the query's shuffles uniquely (every node of a
 * query uses the same id), the {@link ShuffleTransport} (the fabric unless the TCP baseline is asked for) and the
 * cluster's secret, with which the TCP baseline authenticates its connections (needed only there). With one node
 * exchanges pass rows through and the fabric fields may be null.
 */
public record ExecutionContext(
        int nodeIndex,
        int nodeCount,
        Catalog catalog,
        int threads,
        Fabric fabric,
        PeerExchange peerExchange,
        EndpointDesign design,
        UnaryOperator<EndpointConfig> endpointTweaks,
        String queryId,
        ShuffleTransport transport,
        SharedSecret secret) {

    public ExecutionContext {
        Objects.requireNonNull(catalog, "catalog is null");
        Objects.requireNonNull(queryId, "queryId is null");
        if (nodeCount < 1 || nodeIndex < 0 || nodeIndex >= nodeCount) {
            throw new IllegalArgumentException(
                    "bad node index or count: nodeIndex=" + nodeIndex + " nodeCount=" + nodeCount);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        if (endpointTweaks == null) {
            endpointTweaks = UnaryOperator.identity();
        }
        if (transport == null) {
            transport = ShuffleTransport.FABRIC;
        }
        if (nodeCount > 1) {
            Objects.requireNonNull(fabric, "fabric is null (needed with more than one node)");
            Objects.requireNonNull(peerExchange, "peerExchange is null (needed with more than one node)");
            Objects.requireNonNull(design, "design is null (needed with more than one node)");
            if (peerExchange.nodes() != nodeCount || peerExchange.nodeIndex() != nodeIndex) {
                throw new IllegalArgumentException("the peer exchange disagrees: exchange node "
                        + peerExchange.nodeIndex() + " of " + peerExchange.nodes() + ", context node " + nodeIndex
                        + " of " + nodeCount);
            }
        }
    }

    /** The default thread count: {@code -Dfaro.engine.threads}, else the available processors. */
    public static int defaultThreads() {
        return Integer.getInteger("faro.engine.threads", Runtime.getRuntime().availableProcessors());
    }

    /** A single-node context: exchanges are pass-throughs. */
    public static ExecutionContext local(Catalog catalog, int threads) {
        return new ExecutionContext(0, 1, catalog, threads, null, null, null, null, "local", null, null);
    }

    /** One node of a distributed query; node index and count come from {@code peers}. */
    public static ExecutionContext distributed(
            Catalog catalog, int threads, Fabric fabric, PeerExchange peers, EndpointDesign design, String queryId) {
        return new ExecutionContext(
                peers.nodeIndex(),
                peers.nodes(),
                catalog,
                threads,
                fabric,
                peers,
                design,
                null,
                queryId,
                ShuffleTransport.FABRIC,
                null);
    }

    /** This context with {@code tweaks} applied to every shuffle's {@link EndpointConfig#defaults}. */
    public ExecutionContext withEndpointTweaks(UnaryOperator<EndpointConfig> tweaks) {
        return new ExecutionContext(
                nodeIndex,
                nodeCount,
                catalog,
                threads,
                fabric,
                peerExchange,
                design,
                tweaks,
                queryId,
                transport,
                secret);
    }

    /** This context with its exchanges over {@code value} (the TCP baseline ignores the design). */
    public ExecutionContext withTransport(ShuffleTransport value) {
        return new ExecutionContext(
                nodeIndex,
                nodeCount,
                catalog,
                threads,
                fabric,
                peerExchange,
                design,
                endpointTweaks,
                queryId,
                value,
                secret);
    }

    /** This context with the cluster's secret, which the TCP baseline's connections must prove (never logged). */
    public ExecutionContext withSecret(SharedSecret value) {
        return new ExecutionContext(
                nodeIndex,
                nodeCount,
                catalog,
                threads,
                fabric,
                peerExchange,
                design,
                endpointTweaks,
                queryId,
                transport,
                value);
    }

    /** The endpoint configuration of this query's shuffles. */
    public EndpointConfig endpointConfig() {
        return endpointTweaks.apply(EndpointConfig.defaults(design, threads));
    }
}
