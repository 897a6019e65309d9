package dev.faro.bench.middleware;

/**
 * One point of the Fig. 5 analogue: a DAIS16 TPC-C query on {@code processes} worker JVMs of {@code workers} engine
 * threads each over {@code transport}, or sequentially ({@code processes} 1, {@code workers} 1, no exchange).
 *
 * @param seconds the median run's time (the slowest node's)
 * @param rows rows of the answer (equal to the sequential answer's, checked)
 */
record TpccFigureResult(int query, String transport, int processes, int workers, double seconds, int rows) {

    /** The sequential run's transport column. */
    static final String SEQUENTIAL = "sequential";
}
