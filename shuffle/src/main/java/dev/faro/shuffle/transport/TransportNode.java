package dev.faro.shuffle.transport;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a node offers the transport of one query ({@link TransportFactory#create}): its fabric, the query's peers, the
 * cluster secret, the stall timeout and progress signal its waits use, and objects that outlive the query
 * ({@link #shared}). Coordination code; thread-safe.
 */
public final class TransportNode {

    private final Fabric fabric;
    private final PeerExchange peers;
    private final SharedSecret secret;
    private final Duration stallTimeout;
    private final ProgressSignal progress;
    private final Shared shared;

    /**
     * @param fabric the node's fabric, open for the node's lifetime (a transport never closes it)
     * @param peers the bootstrap channel of this query's nodes
     * @param secret what the nodes share, for transports that authenticate their own connections
     * @param stallTimeout how long a wait may see no progress anywhere in the query before it fails
     * @param progress this node's progress signal (the cluster's, relayed by the runtime)
     * @param shared the node's lifetime objects, one per node, kept across queries
     */
    public TransportNode(
            Fabric fabric,
            PeerExchange peers,
            SharedSecret secret,
            Duration stallTimeout,
            ProgressSignal progress,
            Shared shared) {
        this.fabric = Objects.requireNonNull(fabric, "fabric is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.secret = Objects.requireNonNull(secret, "secret is null");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
        this.shared = Objects.requireNonNull(shared, "shared is null");
    }

    /** A node with the designs' default stall timeout and a progress signal of its own (in-process tests). */
    public static TransportNode of(Fabric fabric, PeerExchange peers, SharedSecret secret, Shared shared) {
        return new TransportNode(
                fabric,
                peers,
                secret,
                EndpointConfig.defaults(EndpointDesign.MESQ_SR, 1).stallTimeout(),
                new ProgressSignal(),
                shared);
    }

    public Fabric fabric() {
        return fabric;
    }

    /** This query's bootstrap channel; a {@link #shared} object must not keep it beyond the query. */
    public PeerExchange peers() {
        return peers;
    }

    public SharedSecret secret() {
        return secret;
    }

    public Duration stallTimeout() {
        return stallTimeout;
    }

    public ProgressSignal progress() {
        return progress;
    }

    /**
     * The node's object under {@code key}, created by {@code create} the first time any query asks and closed when the
     * node's {@link Shared} is closed: a multiplexer or a middleware instance that every query of this node shares. A
     * cluster worker closes its {@code Shared} when its session with the coordinator ends, just before it exits.
     *
     * @throws IllegalStateException when the node has stopped
     * @throws ClassCastException when {@code key} holds an object of another type
     */
    public <T extends AutoCloseable> T shared(String key, Class<T> type, Supplier<T> create) {
        return type.cast(shared.get(key, create));
    }

    /** The objects of one node that outlive its queries; closing it closes them, newest first. */
    public static final class Shared implements AutoCloseable {

        private final java.util.Map<String, AutoCloseable> objects = new java.util.LinkedHashMap<>();
        private boolean closed;

        synchronized AutoCloseable get(String key, Supplier<? extends AutoCloseable> create) {
            if (closed) {
                throw new IllegalStateException("the node has stopped; no transport can open '" + key + "'");
            }
            AutoCloseable object = objects.get(key);
            if (object == null) {
                object = Objects.requireNonNull(create.get(), "create returned null");
                objects.put(key, object);
            }
            return object;
        }

        /** Closes every object, newest first; the first failure is thrown after all were closed. */
        @Override
        public void close() {
            List<AutoCloseable> toClose;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                toClose = new ArrayList<>(objects.values());
                objects.clear();
            }
            RuntimeException failure = null;
            for (AutoCloseable object : toClose.reversed()) {
                try {
                    object.close();
                } catch (Exception e) {
                    RuntimeException wrapped = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                    if (failure == null) {
                        failure = wrapped;
                    } else {
                        failure.addSuppressed(wrapped);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
