/**
 * Datagram links of the zero-sided packet fabric: {@link dev.faro.zerosided.link.UdpPacketLink} (a real UDP socket on
 * 127.0.0.1, never a wildcard: the multi-process runs), {@link dev.faro.zerosided.link.InProcessNetwork} (bounded
 * queues in one JVM: fast tests) and {@link dev.faro.zerosided.link.FaultyLink} (seeded loss, duplication, reordering
 * and delay around either). A link is owned by one thread and unreliable like Ethernet under RoCE; reliability is the
 * NICs' and the switch's business. Knows nothing of packet contents.
 */
package dev.faro.zerosided.link;
