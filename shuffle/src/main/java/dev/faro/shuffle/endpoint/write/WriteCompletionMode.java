package dev.faro.shuffle.endpoint.write;

/**
 * How the RECEIVE endpoint of RDMA WRITE over RC learns that a buffer was written (TODS19 §5.5, Fig. 10). No mode
 * dominates on paper; the paper's experiments (§7.1.2) choose {@link #POLL_COMPLETION_QUEUE}, the default.
 */
public enum WriteCompletionMode {
    /**
     * §5.5.1: the sender's one WRITE covers the whole buffer, and its last 8-byte word is a seal; the receiver scans
     * the seal words of all its buffers (n·k locations) and resets a seal when the buffer is released. Two WRITEs
     * per transfer (data, FreeArr).
     */
    POLL_BUFFERS,
    /**
     * §5.5.2: after the data WRITE the sender WRITEs the buffer's index into the receiver's ValidArr ring for it; RC
     * order makes the data visible first. The receiver polls one ring head per source (n locations). Three WRITEs
     * per transfer (data, ValidArr, FreeArr).
     */
    POLL_MESSAGE_QUEUE,
    /**
     * §5.5.3: WRITE_WITH_IMMEDIATE, the immediate naming the buffer; the receiver polls its one completion queue.
     * Each such WRITE consumes a posted receive, so the absolute credit protocol of Send/Receive applies, with
     * receives over-extended beyond the buffers. 2 + 1/f WRITEs per transfer (data, FreeArr, a credit every f).
     */
    POLL_COMPLETION_QUEUE;

    /** The paper's choice. */
    public static final WriteCompletionMode DEFAULT = POLL_COMPLETION_QUEUE;
}
