package dev.faro.fabric;

/**
 * Access rights of a registered {@link MemoryRegion}, as in InfiniBand verbs ({@code IBV_ACCESS_*}).
 *
 * <p>Every region may be read locally as the source of a SEND or WRITE. The rights below grant everything else; an
 * operation that needs a right the region lacks fails and changes nothing.
 */
public enum Access {
    /** The local fabric may write into the region: needed to post a RECEIVE into it or to land a READ or an atomic result. */
    LOCAL_WRITE,
    /** Peers may READ from the region. */
    REMOTE_READ,
    /** Peers may WRITE (and WRITE_WITH_IMM) into the region. */
    REMOTE_WRITE,
    /** Peers may run FETCH_ADD and COMPARE_SWAP on aligned 8-byte words of the region. */
    REMOTE_ATOMIC;

    /** The bit of this right in {@link #toBits} masks. */
    public int bit() {
        return 1 << ordinal();
    }

    /** Encodes a set of rights as a bit mask (stable across processes and versions). */
    public static int toBits(java.util.Set<Access> rights) {
        int bits = 0;
        for (Access access : rights) {
            bits |= access.bit();
        }
        return bits;
    }
}
