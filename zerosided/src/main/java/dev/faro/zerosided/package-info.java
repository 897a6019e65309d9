/**
 * SIGMOD24 zero-sided RDMA (Jasny et al.): processing units (PUs) only expose memory with circular buffers and move
 * their head and tail words; a software switch is the RDMA initiator of every PU's NIC, READs items from producers,
 * rewrites the READ responses in flight into WRITEs to consumers, and updates the pointers on both sides. No PU thread
 * takes part in communication.
 *
 * <p>Packages: {@code packet} (the byte-exact RoCE-like packet format, 24-bit PSNs), {@code link} (datagram links:
 * shared-memory rings between processes, UDP on 127.0.0.1, an in-process network for fast tests, seeded loss /
 * reordering / duplication / delay),
 * {@code nic} (the simulated RC NIC of a PU), {@code unit} (the PU library: the zero-sided buffer and the doorbell,
 * with no operation that moves data), {@code switching} (the switch's data plane, control plane, flows, and its
 * forwarding-rate probe), {@code exchange} (the switch as the engine's exchange transport {@code zerosided}). This package holds the glue a PU's set-up needs ({@link dev.faro.zerosided.BufferExposure},
 * {@link dev.faro.zerosided.LinkDoorbell}) and {@link dev.faro.zerosided.AgentRunner}, which runs NIC and switch agents
 * on their threads.
 *
 * <p><b>Why a module on {@code fabric} and not a fabric provider.</b> A provider implements the verbs contract for
 * its users: queue pairs connected to a peer, requests posted by the user and completed to the user, the shared
 * conformance suite. Zero-sided RDMA inverts that: the endpoints post nothing, and the one initiator (the switch)
 * works below the verbs, on packets: it rewrites READ responses into WRITEs, maps PSNs between two connections by an
 * offset, and keeps per-flow register state. None of this is expressible through {@code QueuePair.postSend} without
 * breaking the provider contract, and a provider whose users may not post would fail the conformance suite. So the
 * packet fabric is its own layer here, and what it shares with {@code fabric} it takes from there
 * ({@link dev.faro.fabric.FaultInjection} for the seeded faults, {@link dev.faro.fabric.FaroException} for errors),
 * while the CPU-driven baseline it is compared with runs on the verbs fabric itself.
 */
package dev.faro.zerosided;
