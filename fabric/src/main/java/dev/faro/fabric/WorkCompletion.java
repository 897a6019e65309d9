package dev.faro.fabric;

/**
 * One completion, as polled from a {@link CompletionQueue}: a reusable flyweight that a provider fills in place, so
 * polling allocates nothing. Allocate an array once with {@link #array(int)} and poll into it again and again.
 *
 * <p>Data path: allocation-free. An instance is owned by the thread that polls into it.
 */
public final class WorkCompletion {

    private long requestId;
    private CompletionStatus status = CompletionStatus.SUCCESS;
    private Opcode opcode = Opcode.SEND;
    private int byteLength;
    private int immediate;
    private boolean hasImmediate;
    private int queuePairNumber;
    private long sourceNode;
    private int sourceQueuePairNumber;

    /** Allocates {@code count} empty completions to poll into. */
    public static WorkCompletion[] array(int count) {
        WorkCompletion[] completions = new WorkCompletion[count];
        for (int i = 0; i < count; i++) {
            completions[i] = new WorkCompletion();
        }
        return completions;
    }

    /** For providers: fills this completion. */
    public void set(
            long requestId,
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            int queuePairNumber,
            long sourceNode,
            int sourceQueuePairNumber) {
        this.requestId = requestId;
        this.status = status;
        this.opcode = opcode;
        this.byteLength = byteLength;
        this.immediate = immediate;
        this.hasImmediate = hasImmediate;
        this.queuePairNumber = queuePairNumber;
        this.sourceNode = sourceNode;
        this.sourceQueuePairNumber = sourceQueuePairNumber;
    }

    /** The id the application gave the work request. */
    public long requestId() {
        return requestId;
    }

    public CompletionStatus status() {
        return status;
    }

    /** What completed; receives report {@link Opcode#RECEIVE} or {@link Opcode#RECEIVE_WRITE_WITH_IMMEDIATE}. */
    public Opcode opcode() {
        return opcode;
    }

    /** Bytes placed: the payload of a received SEND or WRITE_WITH_IMMEDIATE, or the length of a READ or atomic. */
    public int byteLength() {
        return byteLength;
    }

    /** The 32-bit immediate of a WRITE_WITH_IMMEDIATE; meaningful only when {@link #hasImmediate()}. */
    public int immediate() {
        return immediate;
    }

    public boolean hasImmediate() {
        return hasImmediate;
    }

    /** The local queue pair this completion belongs to. */
    public int queuePairNumber() {
        return queuePairNumber;
    }

    /** For receives: the node id of the sender (see {@link QueuePairAddress#node()}); 0 otherwise. */
    public long sourceNode() {
        return sourceNode;
    }

    /** For receives: the sender's queue pair number; 0 otherwise. */
    public int sourceQueuePairNumber() {
        return sourceQueuePairNumber;
    }

    /** A readable form for logs and test failures (allocates; not for the data path). */
    @Override
    public String toString() {
        return "WorkCompletion[requestId=" + requestId + ", status=" + status + ", opcode=" + opcode
                + ", byteLength=" + byteLength + (hasImmediate ? ", immediate=" + immediate : "")
                + ", queuePairNumber=" + queuePairNumber
                + (sourceNode != 0 ? ", source=" + Long.toHexString(sourceNode) + "/" + sourceQueuePairNumber : "")
                + "]";
    }
}
