/**
 * RDMA READ over RC ("MQ/RD", TODS19 §5.4, Algorithm 4): the sender owns the buffers, the receiver pulls them.
 * Two rings ({@link dev.faro.shuffle.ring.RingDescriptor}) synchronize the two sides: {@code ValidArr[s]} in the
 * receiver's memory (written by sender {@code s}: "buffer b holds a message of len bytes") and {@code FreeArr[r]} in
 * the sender's memory (written by receiver {@code r}: "I am done with buffer b").
 *
 * <pre>
 *  send endpoint (node s)                                   receive endpoint (node r)
 *  pool of k·n buffers, FreeArr[r] per receiver              ValidArr[s] per sender, k landing buffers per sender
 *
 *  ACQUIRE: a pooled buffer, else harvest FreeArr rings
 *  fill b; PUTDATA: header {state, source, length} into b
 *    per member r: WRITE ValidArr[s] slot {b, len} ──────►  GETDATA: ValidArr[s] head set and a landing buffer l
 *                                                             free: take the entry (clear the slot)
 *                                      ◄──── READ b → l ───   post READ (the sender's CPU stays passive)
 *                                                             poll CQ: READ done; decode the header; hand out l
 *                                      ◄──── WRITE ────────  RELEASE l: WRITE FreeArr[r] slot {b}; l back to pool
 *  harvest: b freed by every member ─► back to the pool
 *  ...
 *  PUTDATA DEPLETED: the last entry to r ───────────────►  its READ completes last (one queue pair, in order);
 *                                                            GETDATA returns null after every source's DEPLETED
 *                                      ◄──── WRITE ────────  RELEASE of the source's last buffer: signaled
 *  close: wait until every destination freed every          close: wait until its WRITEs completed; free
 *    buffer (no READ or FreeArr WRITE can still come);
 *    wait for its own WRITEs (DEPLETED's is signaled); free
 * </pre>
 *
 * Ring capacity: a buffer is in at most one ValidArr entry and one FreeArr entry per receiver until it is reused, so
 * neither ring ever holds more entries than the sender's pool has buffers; both rings have that capacity (rounded
 * up to a power of two). Multicast and broadcast: a buffer returns to the pool only after every member of its group
 * freed it. A broken queue pair to a peer the endpoint still waits for, or an error completion, fails the endpoint
 * with {@code NETWORK}; every later call rethrows it.
 */
package dev.faro.shuffle.endpoint.read;
