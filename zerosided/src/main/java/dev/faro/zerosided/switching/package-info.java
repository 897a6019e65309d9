/**
 * The zero-sided software switch: {@link dev.faro.zerosided.switching.ZeroSidedSwitch} (the single-threaded data
 * plane: ingress, the switch threads on a recirculation queue, egress), {@link dev.faro.zerosided.switching.SwitchControl}
 * (the control plane: endpoints, flows, live changes), the flows ({@link dev.faro.zerosided.switching.FlowKind}) and
 * {@link dev.faro.zerosided.switching.ForwardingProbe} (the switch's own forwarding rate).
 *
 * <p><b>One transfer</b> (paper §4, Fig. 3), driven by consumer c's switch thread over producer buffer p; every
 * connection has at most one operation outstanding, and every operation is reissued with its own PSNs:
 *
 * <pre>
 *  switch                      producer NIC p                consumer NIC c
 *  1 decide: avail = head[p]-tail[p], free = cap[c]-(head[c]-tail[c]),
 *    n = min(avail, free, maxBatch), split at either ring's end; else poll (READ 8 B of a pointer) or recirculate
 *    READ(psnP, va = p.slot(tail[p]), n*item) ------&gt;
 *  2                    &lt;------ READ_RESP first..last (psnP..psnP+k-1)
 *    rewrite each in place: WRITE first..last, PSN + (psnC - psnP), RETH on first ----------------------&gt;
 *  3                                                   &lt;-------------------------------- ACK(psnC+k-1)
 *    WRITE head[c] + n (8 B, absolute) --------------------------------------------------------------&gt;
 *  4                                                   &lt;-------------------------------- ACK
 *    WRITE tail[p] + n (8 B, absolute) ------&gt;
 *  5                    &lt;------ ACK           back to 1 (recirculate)
 * </pre>
 *
 * <p><b>Faults.</b> A timeout or a sequence NAK before step 3 reissues the READ with the same PSNs: the consumer NIC
 * re-ACKs what it already applied and applies the rest, so items land exactly once. After step 3 only the pending
 * pointer WRITE is reissued. Pointers are absolute counts and mirrors move only on an ACK that covers the operation,
 * so no retry advances a pointer twice. Responses and ACKs that match no outstanding operation (late duplicates) are
 * dropped. A PU that stops answering fails its flow after {@code maxRetries} with one line
 * ({@link dev.faro.zerosided.switching.SwitchStatistics#failure()}).
 *
 * <p><b>Flows.</b> A switch thread per consumer visits its producer buffers round robin: key-based shuffle (producer p
 * has a buffer per consumer) and 1:1; load balancing (all threads over the same producers, a per-producer lock;
 * consumers and producers can be added, consumers removed, while it runs). Replication
 * ({@code ReplicationThreads}): a thread per producer locks every consumer, multicasts
 * each response to all of them and raises their heads only when all have ACKed, so all see one global order. QoS
 * ({@code QosScheduler}): per-flow weights share the switch's transfers among backlogged
 * flows. End of stream: a producer sets bit 63 of its head; when every producer of a consumer has ended and been
 * drained, the switch WRITEs the consumer's head with that bit.
 *
 * <p><b>Not built yet</b> (see the issue): ECN marking by queue depth (the switch has no queues: it sends a CNP to
 * the producer's NIC when a consumer NAKs lost data, and the NIC halves its READ response burst), QoS for replication threads, and live removal of producers. The switch as an exchange
 * transport of the engine is {@code dev.faro.zerosided.exchange}.
 */
package dev.faro.zerosided.switching;
