package dev.faro.shuffle.setup;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import java.util.List;

/**
 * One node's endpoints of one shuffle: a single shared endpoint per side (SE) or one per thread (ME). Thread
 * {@code t} of the SHUFFLE operator uses {@link #sender(int)}, thread {@code t} of RECEIVE {@link #receiver(int)}.
 */
public record NodeEndpoints(List<SendEndpoint> senders, List<ReceiveEndpoint> receivers, List<AutoCloseable> resources)
        implements AutoCloseable {

    /**
     * @param resources what the endpoints share and that closes after them (e.g. the node's buffer pool)
     */
    public NodeEndpoints {
        senders = List.copyOf(senders);
        receivers = List.copyOf(receivers);
        resources = List.copyOf(resources);
    }

    public NodeEndpoints(List<SendEndpoint> senders, List<ReceiveEndpoint> receivers) {
        this(senders, receivers, List.of());
    }

    /** The send endpoint thread {@code thread} uses. */
    public SendEndpoint sender(int thread) {
        return senders.get(thread % senders.size());
    }

    /** The receive endpoint thread {@code thread} uses. */
    public ReceiveEndpoint receiver(int thread) {
        return receivers.get(thread % receivers.size());
    }

    /** Gives every endpoint's stream up ({@link SendEndpoint#abandon}): the query failed; close them next. */
    public void abandon() {
        for (SendEndpoint sender : senders) {
            sender.abandon();
        }
        for (ReceiveEndpoint receiver : receivers) {
            receiver.abandon();
        }
    }

    /**
     * Ends the shuffle's streams as {@link #close} would but keeps every endpoint for the next shuffle of the same
     * shape ({@link SendEndpoint#recycle}); true when every endpoint was recycled. False or an exception: some endpoint
     * cannot be reused, and the caller must {@link #close} them all. Senders first, as in close.
     */
    public boolean recycle() {
        for (SendEndpoint sender : senders) {
            if (!sender.recycle()) {
                return false;
            }
        }
        for (ReceiveEndpoint receiver : receivers) {
            if (!receiver.recycle()) {
                return false;
            }
        }
        return true;
    }

    /** Starts the next shuffle on recycled endpoints: the receivers post and grant their first credits. */
    public void restart() {
        for (ReceiveEndpoint receiver : receivers) {
            receiver.restart();
        }
    }

    /**
     * Closes every endpoint (senders first: their close finishes the streams), then the shared resources; the first
     * failure is thrown, later ones are attached to it.
     */
    @Override
    public void close() {
        RuntimeException first = null;
        for (AutoCloseable endpoint : senders) {
            first = closeQuietly(endpoint, first);
        }
        for (AutoCloseable endpoint : receivers) {
            first = closeQuietly(endpoint, first);
        }
        for (AutoCloseable resource : resources) {
            first = closeQuietly(resource, first);
        }
        if (first != null) {
            throw first;
        }
    }

    private static RuntimeException closeQuietly(AutoCloseable endpoint, RuntimeException first) {
        try {
            endpoint.close();
        } catch (RuntimeException e) {
            if (first == null) {
                return e;
            }
            first.addSuppressed(e);
        } catch (Exception e) {
            RuntimeException wrapped = new IllegalStateException(e);
            if (first == null) {
                return wrapped;
            }
            first.addSuppressed(wrapped);
        }
        return first;
    }
}
