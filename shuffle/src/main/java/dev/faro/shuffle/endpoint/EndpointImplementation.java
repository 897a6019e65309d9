package dev.faro.shuffle.endpoint;

/** The four endpoint implementations of TODS19 §5: transport service and RDMA primitive. */
public enum EndpointImplementation {
    /** SQ/SR: one UD queue pair per endpoint, SEND/RECEIVE, software ordering and loss detection (§5.3). */
    UD_TWO_SIDED("SQ/SR", true),
    /** MQ/SR: one RC queue pair per remote node, SEND/RECEIVE with the stateless credit protocol (§5.2). */
    RC_TWO_SIDED("MQ/SR", false),
    /** MQ/RD: one RC queue pair per remote node, the receiver pulls with RDMA READ (§5.4). */
    RC_READ("MQ/RD", false),
    /** MQ/WR: one RC queue pair per remote node, the sender pushes with RDMA WRITE (§5.5). */
    RC_WRITE("MQ/WR", false);

    private final String paperName;
    private final boolean datagram;

    EndpointImplementation(String paperName, boolean datagram) {
        this.paperName = paperName;
        this.datagram = datagram;
    }

    /** The paper's suffix, e.g. "MQ/SR". */
    public String paperName() {
        return paperName;
    }

    /**
     * Whether its endpoints draw from the node's buffer pool and can follow the adaptive policy (TODS19 §6.2); the
     * one-sided designs own fixed buffer arrays that peers address by index.
     */
    public boolean supportsAdaptiveBuffers() {
        return this == UD_TWO_SIDED || this == RC_TWO_SIDED;
    }

    /** Whether the implementation needs UD queue pairs. */
    public boolean needsDatagrams() {
        return datagram;
    }
}
