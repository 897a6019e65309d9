/**
 * {@code faro bench zerosided}: SIGMOD24 Fig. 6 (digest V1/V4) on the cluster runtime, then the experiments of the
 * digest's section 6 that apply. Three worker JVMs: node 0 the switch process, node 1 the producers' host, node 2 the
 * consumers'. One cluster round per point, all three nodes in it: set-up data travels through the round's all-gathers
 * ({@code endpoints}, {@code switch} or {@code cpu-setup}, {@code done}, {@code stopped}); the timed loops run between
 * the workers alone.
 *
 * <ul>
 *   <li>{@code forwarding}: the switch alone against perfect NICs (no I/O), measured first;
 *   <li>{@code zero-sided}: N 1:1 flows over the switch, simulated RC NICs and the point's packet link (shared-memory
 *       rings by default, UDP on 127.0.0.1 with {@code --link udp});
 *   <li>{@code cpu-driven}: the same buffers and endpoint threads, moved by D driver threads with RC WRITEs on the
 *       worker's verbs fabric ({@code --provider}).
 * </ul>
 *
 * <p>With {@code --pin} the Fig. 6 points put "the network" (the switch's loop, the simulated NICs, the {@code net}
 * fabric's progress threads) on one CPU and the processing units (producers, consumers, the baseline's drivers) on the
 * other ({@code CorePlacement}); with {@code --endpoint-work N} the endpoints are compute-bound and their useful work
 * is reported beside the items moved.
 *
 * <p>The experiments after Fig. 6 ({@link dev.faro.bench.zerosided.ZeroSidedExperiments}) each study one property of
 * the switch and run on node 0 alone, the switch, the NICs and the PU threads in one process ({@link
 * dev.faro.bench.zerosided.SwitchRig}) on the same packet link: V2 batching sweep ({@code BatchingSweep}), V3 polling
 * vs doorbell latency ({@code PollingLatency}), V6 the TPC-H Q1 load-balancing use case ({@code Q1LoadBalancing}), V7
 * elasticity ({@code Elasticity}), V8/V9 replication order and fairness against the DFI-like multicast ({@code
 * ReplicationOrder}), V10 QoS shares ({@code QosShares}), V5 the N:M shuffle against DFI-like, TCP and MPI-like baselines ({@code NmShuffle} over
 * {@code TupleShuffle}s) and V11 the distributed join ({@code DistributedJoin}); V12 (switch state per pair) is a line
 * of the Fig. 6 table. The DFI-like baseline of V5 and V8 ({@code DfiNodes}, {@code DfiTupleShuffle}, {@code
 * DfiReplication}, {@code FetchAddSequencer}) runs DFI's flows on the verbs fabric through TODS19's RDMA WRITE design.
 */
package dev.faro.bench.zerosided;
