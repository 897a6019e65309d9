/**
 * Datagram links of the zero-sided packet fabric: {@link dev.faro.zerosided.link.ShmPacketLink} (shared-memory rings
 * of datagram slots in mapped files, one per port: the multi-process runs' default), {@link
 * dev.faro.zerosided.link.UdpPacketLink} (a real UDP socket on 127.0.0.1, never a wildcard), {@link
 * dev.faro.zerosided.link.InProcessNetwork} (bounded queues in one JVM: fast tests) and {@link
 * dev.faro.zerosided.link.FaultyLink} (seeded loss, duplication, reordering and delay around any of them); {@link
 * dev.faro.zerosided.link.LinkKind} names the two that connect processes. A link is owned by one thread and unreliable
 * like Ethernet under RoCE; reliability is the NICs' and the switch's business. Knows nothing of packet contents.
 *
 * <p><b>Why a shared-memory link, and not batched system calls.</b> Over UDP every 1 KiB packet costs a
 * {@code sendto} and a {@code recvfrom} per hop, about 20 µs of CPU each way on a loaded 2-core host (JFR), so the
 * zero-sided path measured the kernel, not the switch (0.05–0.07 GB/s against a switch that forwards 3 GB/s alone).
 * {@code sendmmsg}/{@code recvmmsg} through FFM would amortise the calls only where a sender has several packets at
 * once (a READ's responses), not for the one-packet steps (READ request, ACKs, pointer WRITEs) that make up most of a
 * transfer's round trips, and would still copy every datagram through the kernel twice; the JDK's
 * {@code DatagramChannel} has no batching. A ring of packet slots in a mapped file keeps what matters for the
 * protocol (byte-exact packets, a link that drops when full, faults injected by {@code FaultyLink}, the PSN logic
 * untouched) and costs one copy in, one CAS and one volatile store per datagram, and no system call while the
 * receiver is awake. UDP stays available ({@code faro bench zerosided --link udp}) as the closer model of RoCEv2's own
 * transport. An idle owner sleeps on a futex in its ring's header ({@code SharedFutex}); a sender that finds it asleep
 * wakes it with one system call, once per burst. Without {@code futex(2)} an idle owner parks for about 20 µs between
 * looks (as the {@code shm} fabric does).
 */
package dev.faro.zerosided.link;
