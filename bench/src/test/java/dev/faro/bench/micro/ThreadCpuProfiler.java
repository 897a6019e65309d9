package dev.faro.bench.micro;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof dev.faro.bench.micro.ThreadCpuProfiler}) that reports the CPU time the benchmark's
 * threads used per operation ({@code ·cpu.time/op}, ns): on a host shared with other busy processes the wall-clock
 * score grows with the load, while the threads' own CPU time mostly does not, so before/after comparisons stay
 * readable there. Reads {@link ThreadMXBean#getThreadCpuTime} of the JMH worker threads around each iteration.
 */
public final class ThreadCpuProfiler implements InternalProfiler {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long startNanos;

    @Override
    public String getDescription() {
        return "CPU time of the benchmark threads per operation (ThreadMXBean)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        startNanos = workerCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        long ops = result.getMetadata().getAllOps();
        double perOp = ops == 0 ? Double.NaN : (workerCpuNanos() - startNanos) / (double) ops;
        return List.of(new ScalarResult("·cpu.time/op", perOp, "ns/op", AggregationPolicy.AVG));
    }

    /** CPU time so far of the threads JMH runs the benchmark on (named {@code ...-jmh-worker-N}). */
    private long workerCpuNanos() {
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("-jmh-worker-")) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) {
                    total += cpu;
                }
            }
        }
        return total;
    }
}
