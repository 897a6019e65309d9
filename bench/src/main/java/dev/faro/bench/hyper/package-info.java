/**
 * {@code faro bench hyper}: VLDB16's experiments on the {@code hyper} transport. So far V1 of the digest
 * ({@link dev.faro.bench.hyper.HyperCountsBenchmark}): connections, buffers per exchange operator and broadcast
 * thresholds of classic against hybrid parallelism, with the queue pairs real multiplexers opened.
 */
package dev.faro.bench.hyper;
