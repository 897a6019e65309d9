package dev.faro.zerosided.switching;

/** The communication flows of the switch (paper §5). */
public enum FlowKind {
    /**
     * Key-based shuffle (1:1 is its 1×1 case): producer p keeps one buffer per consumer c; consumer c's switch thread
     * visits its N producer buffers round robin and serializes their writes into its one buffer.
     */
    SHUFFLE,
    /**
     * Load balancing: N producer buffers, M consumer buffers; any item may go to any consumer. Each consumer's switch
     * thread takes from whichever producer has items (a per-producer lock keeps two threads off one producer), so a
     * faster consumer gets more.
     */
    LOAD_BALANCE
}
