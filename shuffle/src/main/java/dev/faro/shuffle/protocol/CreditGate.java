package dev.faro.shuffle.protocol;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RemoteKey;
import dev.faro.shuffle.endpoint.WaitLoop;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The sending side of the stateless credit protocol (TODS19 §5.2): the credit words receivers write into this
 * endpoint's registered region ({@link CreditDescriptor}), and per destination the sends already made. A send to
 * {@code node} may go out only after {@link #tryClaim} took one of its credits ({@code credit > sent}).
 *
 * <p>Thread-safe: {@code sent} words are claimed with CAS, so threads sharing an endpoint (SE) never overdraw.
 * Data path: allocation-free.
 */
public final class CreditGate implements AutoCloseable {

    private final MemoryRegion region;
    private final MemorySegment words;
    private final AtomicLongArray sent;
    private final WaitLoop waits;
    private final WaitLoop.Step whileWaiting;
    private final WaitLoop.Step claimStep = this::tryClaimOrProgress;

    /**
     * @param waits the endpoint's wait loop, in which {@link #claim} waits
     * @param whileWaiting what {@link #claim} does between tries, with the node as argument: checks the connection to
     *     it and polls completions ({@link WaitLoop#PROGRESS} if any, else {@link WaitLoop#IDLE})
     */
    public CreditGate(Fabric fabric, int nodes, WaitLoop waits, WaitLoop.Step whileWaiting) {
        this.waits = waits;
        this.whileWaiting = whileWaiting;
        this.region = fabric.register(
                CreditDescriptor.regionLength(nodes), EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        this.words = region.segment();
        this.sent = new AtomicLongArray(nodes);
    }

    /** The key receivers write credit words with. */
    public RemoteKey key() {
        return region.remoteKey();
    }

    /** Takes one credit of {@code node} if it granted more than was used; false otherwise (poll and retry). */
    public boolean tryClaim(int node) {
        while (true) {
            long used = sent.get(node);
            if (CreditDescriptor.credit(CreditDescriptor.read(words, node)) <= used) {
                return false;
            }
            if (sent.compareAndSet(node, used, used + 1)) {
                return true;
            }
        }
    }

    /** Credits of {@code node} granted and not used yet (approximate while other threads claim). */
    public long available(int node) {
        return CreditDescriptor.credit(CreditDescriptor.read(words, node)) - sent.get(node);
    }

    /**
     * Takes one credit of {@code node}, waiting while it granted none that is unused; a stall fails the endpoint,
     * naming the node, its credit and {@code hint}. Data path: allocation-free.
     *
     * @param blockedNanos the endpoint's credit-wait counter (see {@link WaitLoop})
     */
    public void claim(int node, AtomicLong blockedNanos, String hint) {
        if (waits.await(claimStep, node, blockedNanos) == WaitLoop.STALLED) {
            throw waits.fail("node " + node + " granted no credit for " + waits.stall() + " (sent " + used(node)
                    + ", credit " + granted(node) + hint + ")");
        }
    }

    private int tryClaimOrProgress(int node) {
        return tryClaim(node) ? WaitLoop.DONE : whileWaiting.attempt(node);
    }

    /** Sends claimed to {@code node} so far. */
    public long used(int node) {
        return sent.get(node);
    }

    /** The credit {@code node} has granted so far. */
    public long granted(int node) {
        return CreditDescriptor.credit(CreditDescriptor.read(words, node));
    }

    /** Whether {@code node} wrote its FINAL credit (it will grant no more). */
    public boolean isFinal(int node) {
        return CreditDescriptor.isFinal(CreditDescriptor.read(words, node));
    }

    /** Whether {@code node} wrote its FINAL credit and every credit is used: send/receive parity is reached. */
    public boolean isFinalAndUsedUp(int node) {
        long word = CreditDescriptor.read(words, node);
        return CreditDescriptor.isFinal(word) && CreditDescriptor.credit(word) <= sent.get(node);
    }

    /**
     * Starts the next stream on the same credit words (a recycled endpoint): no credit granted, none used. Only once
     * no receiver writes here any more: each wrote its FINAL credit, or never wrote (it expects nothing from us).
     */
    public void reset() {
        for (int node = 0; node < sent.length(); node++) {
            words.set(ValueLayout.JAVA_LONG, CreditDescriptor.slotOffset(node), 0L);
            sent.set(node, 0);
        }
        VarHandle.fullFence();
    }

    @Override
    public void close() {
        region.close();
    }
}
