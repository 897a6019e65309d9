/**
 * The simulated RC NIC of a processing unit ({@link dev.faro.zerosided.nic.SimulatedRcNic}): registered regions with
 * keys and bounds, queue pairs connected to the switch, and the responder half of RC: READs served in MTU segments,
 * WRITEs applied only in PSN order, duplicates re-ACKed, gaps NAKed once, access errors NAKed. It runs on its own
 * agent thread, as a NIC runs beside the PU: the PU's threads never see a packet.
 *
 * <pre>
 * responder, per queue pair                       ePSN = expected PSN
 *   request PSN == ePSN   apply / serve; ePSN += packets; ACK at message end (or AckReq)
 *   request PSN &lt;  ePSN   duplicate: WRITE re-ACKed with ePSN-1, not applied; READ served again
 *   request PSN &gt;  ePSN   gap: dropped; one NAK(sequence, ePSN) until ePSN arrives
 * </pre>
 */
package dev.faro.zerosided.nic;
