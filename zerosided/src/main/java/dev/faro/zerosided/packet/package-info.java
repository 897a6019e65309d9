/**
 * The packet format of the zero-sided fabric: RoCEv2's UDP payload (BTH, RETH / AETH, payload, ICRC) with the RC
 * opcodes the protocol uses plus CNP and a doorbell ({@link dev.faro.zerosided.packet.PacketDescriptor} draws it),
 * a reusable flyweight over a packet buffer ({@link dev.faro.zerosided.packet.Packet}, which can rewrite a READ
 * response into a WRITE around its untouched payload), and 24-bit PSN arithmetic with wrap-around
 * ({@link dev.faro.zerosided.packet.Psn}). Knows nothing of NICs, links or flows. Data path: allocation-free.
 */
package dev.faro.zerosided.packet;
