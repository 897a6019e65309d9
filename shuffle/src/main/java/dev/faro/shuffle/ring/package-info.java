/**
 * Notification rings in registered memory, filled by RDMA WRITE: the paper's {@code FreeArr} and {@code ValidArr}
 * (TODS19 §5.4–5.5). {@link dev.faro.shuffle.ring.RingDescriptor} is the slot layout (one WRITE per slot, its last
 * 8-byte word an absolute sequence that lands last); {@link dev.faro.shuffle.ring.RingProducer} prepares the WRITE
 * on the remote side; {@link dev.faro.shuffle.ring.RingConsumer} polls, takes and clears slots locally. Indexes are
 * absolute 64-bit counts, so a stale or repeated slot is never mistaken for a new entry.
 */
package dev.faro.shuffle.ring;
