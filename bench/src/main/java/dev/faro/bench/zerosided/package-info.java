/**
 * {@code faro bench zerosided}: SIGMOD24 Fig. 6 (digest V1/V4) on the cluster runtime. Three worker JVMs: node 0 the
 * switch process, node 1 the producers' host, node 2 the consumers'. One cluster round per point, all three nodes in
 * it: set-up data travels through the round's all-gathers ({@code endpoints}, {@code switch} or {@code cpu-setup},
 * {@code done}, {@code stopped}); the timed loops run between the workers alone.
 *
 * <ul>
 *   <li>{@code forwarding}: the switch alone against perfect NICs (no I/O), measured first;
 *   <li>{@code zero-sided}: N 1:1 flows over the switch, simulated RC NICs and UDP on 127.0.0.1;
 *   <li>{@code cpu-driven}: the same buffers and endpoint threads, moved by D driver threads with RC WRITEs on the
 *       worker's verbs fabric ({@code --provider}).
 * </ul>
 */
package dev.faro.bench.zerosided;
