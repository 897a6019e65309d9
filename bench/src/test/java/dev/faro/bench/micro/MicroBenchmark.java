package dev.faro.bench.micro;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every Faro micro-benchmark shares (JMH's annotations are inherited): average time in ns, per-thread
 * state, 3 warm-up and 5 measured iterations of 1 s in one forked JVM with native access (the {@code shm} fabric maps
 * files through FFM). Options on the command line override them ({@code -f}, {@code -wi}, {@code -i}, ...).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public abstract class MicroBenchmark {}
