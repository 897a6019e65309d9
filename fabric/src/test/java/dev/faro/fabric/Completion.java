package dev.faro.fabric;

/**
 * An immutable copy of a polled {@link WorkCompletion} (which is a reusable flyweight), so tests can keep completions
 * and print them in failure messages.
 */
public record Completion(
        long requestId,
        CompletionStatus status,
        Opcode opcode,
        int byteLength,
        int immediate,
        boolean hasImmediate,
        int queuePairNumber,
        long sourceNode,
        int sourceQueuePairNumber) {

    public static Completion of(WorkCompletion completion) {
        return new Completion(
                completion.requestId(),
                completion.status(),
                completion.opcode(),
                completion.byteLength(),
                completion.immediate(),
                completion.hasImmediate(),
                completion.queuePairNumber(),
                completion.sourceNode(),
                completion.sourceQueuePairNumber());
    }

    public boolean isSuccess() {
        return status.isSuccess();
    }

    @Override
    public String toString() {
        return "Completion[id=" + requestId + ", " + status + ", " + opcode + ", bytes=" + byteLength
                + (hasImmediate ? ", imm=" + immediate : "") + ", qp=" + queuePairNumber
                + (sourceNode != 0 ? ", source=" + Long.toHexString(sourceNode) + "/" + sourceQueuePairNumber : "")
                + "]";
    }
}
