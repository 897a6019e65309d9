package dev.faro.fabric;

/** An operation that needs a remote access right at its target: the one-sided ones and WRITE_WITH_IMMEDIATE. */
public enum RemoteOp {
    WRITE(Opcode.WRITE, Access.REMOTE_WRITE),
    WRITE_WITH_IMMEDIATE(Opcode.WRITE_WITH_IMMEDIATE, Access.REMOTE_WRITE),
    READ(Opcode.READ, Access.REMOTE_READ),
    FETCH_ADD(Opcode.FETCH_ADD, Access.REMOTE_ATOMIC),
    COMPARE_SWAP(Opcode.COMPARE_SWAP, Access.REMOTE_ATOMIC);

    final Opcode opcode;
    final Access right;

    RemoteOp(Opcode opcode, Access right) {
        this.opcode = opcode;
        this.right = right;
    }

    /** The bytes a test request moves: 128, or 8 for the atomics. */
    int length() {
        return opcode.isAtomic() ? 8 : 128;
    }

    /**
     * A request for this operation with its local buffer at {@code localOffset}; a COMPARE_SWAP compares with
     * {@code compare} (pass the current remote word, so that a wrongly permitted swap would change memory).
     */
    WorkRequest request(
            long requestId, MemoryRegion local, long localOffset, RemoteKey key, long remoteOffset, long compare) {
        WorkRequest request = new WorkRequest()
                .requestId(requestId)
                .opcode(opcode)
                .local(local, localOffset, length())
                .remote(key, remoteOffset);
        switch (this) {
            case WRITE_WITH_IMMEDIATE -> request.immediate(0x1234_5678);
            case FETCH_ADD -> request.add(1);
            case COMPARE_SWAP -> request.compareSwap(compare, compare ^ 0xFFFF_FFFFL);
            default -> {}
        }
        return request;
    }
}
