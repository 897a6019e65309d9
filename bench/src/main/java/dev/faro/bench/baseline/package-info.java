/**
 * Baseline programs the shuffle experiments run beside Faro's designs in the same invocation. The TCP socket baseline
 * is an endpoint of the shuffle module ({@link dev.faro.shuffle.baseline}) and runs inside the worker processes like
 * a design; the MPI baseline ({@link dev.faro.bench.baseline.MpiBaseline}) is a C program, {@code mpi_shuffle.c}
 * (in {@code src/main/c}, shipped as a resource of this package), compiled with {@code mpicc} and launched with
 * {@code mpirun}. Coordination code.
 */
package dev.faro.bench.baseline;
