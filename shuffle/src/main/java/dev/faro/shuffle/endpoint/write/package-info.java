/**
 * RDMA WRITE over RC ("MQ/WR", TODS19 §5.5, Algorithms 5–6): the receiver owns the buffers, the sender pushes into
 * them. Receiver {@code r} lends sender {@code s} the buffers {@code B_s = [s·k, s·k + k)} and announces the free
 * ones in {@code FreeArr[r]}, a ring ({@link dev.faro.shuffle.ring.RingDescriptor}) in the sender's memory. How the
 * receiver learns that a buffer was written is the {@link dev.faro.shuffle.endpoint.write.WriteCompletionMode}.
 *
 * <pre>
 *  send endpoint (node s)                                     receive endpoint (node r)
 *                            ◄── WRITE FreeArr[r] {b}, ×k ───  start: announce every b of B_s
 *                            ◄── WRITE credit = 2k ──────────  (poll-CQ: first post 2k receives: over-extended)
 *  ACQUIRE: a local buffer whose WRITEs all completed
 *  PUTDATA: header {state, source, length, sequence}; per member r: take b from FreeArr[r] (wait while empty)
 *    poll buffers: WRITE the whole buffer → b,
 *                  its last word the seal = sequence ──────►  scan B_s's seals (twice), take the smallest
 *    poll MQ:      WRITE the message → b,
 *                  then WRITE ValidArr[s] {b, len} ────────►  take the head of ValidArr[s]
 *    poll CQ:      claim a credit (sent &lt; credit),
 *                  WRITE_WITH_IMMEDIATE(imm = b) → b ──────►  poll CQ: the receive completion names b
 *                                                              decode the header; hand out b
 *                            ◄── WRITE FreeArr[r] {b} ───────  RELEASE b: poll buffers: reset the seal; poll CQ: post
 *                            ◄── WRITE credit (every f) ─────    a receive, WRITE the credit every f; announce b
 *  PUTDATA DEPLETED (the last WRITE to r) ─────────────────►  hand out DEPLETED; stop announcing B_s;
 *                            ◄── WRITE FINAL | credit ───────  WRITE the FINAL word (signaled; the last WRITE to s)
 *  close: wait for every destination's FINAL word;
 *    poll CQ: pad with empty WRITE_WITH_IMMEDIATEs while
 *    sent &lt; credit ───────────────────────────────────────►  (padding consumes the receives still posted)
 *  wait for its own WRITEs; free                               close: wait until no receive is posted (poll CQ) and
 *                                                              its own WRITEs completed; free
 * </pre>
 *
 * Credits are absolute (total receives posted), as in {@link dev.faro.shuffle.protocol.CreditDescriptor}; outside
 * poll-CQ mode the credit word only carries the FINAL flag. Ring capacities: a lent buffer is in at most one FreeArr
 * entry and one ValidArr entry until it is released, so {@code k} entries (rounded up to a power of two) suffice.
 * DEPLETED is the last buffer of its source in every mode: one queue pair delivers in order (the completion queue and
 * the ValidArr ring follow it; the seal scan hands out the smallest seal, see
 * {@link dev.faro.shuffle.endpoint.write.SealDescriptor}). Multicast and broadcast: a sender buffer returns to the
 * pool after one WRITE completion per member of its group. A broken queue pair to a peer the endpoint still waits
 * for, or an error completion, fails the endpoint with {@code NETWORK}; every later call rethrows it.
 */
package dev.faro.shuffle.endpoint.write;
