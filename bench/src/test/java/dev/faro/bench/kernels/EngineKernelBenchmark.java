package dev.faro.bench.kernels;

import static dev.faro.engine.expression.Expressions.*;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.FilterEvaluator;
import dev.faro.engine.operator.HashAggregationOperator;
import dev.faro.engine.operator.HashJoinProbeOperator;
import dev.faro.engine.operator.JoinBuildOperator;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.plan.AggregationPhase;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmarks of the engine's hot kernels, in nanoseconds per input row, on one 16,384-row batch (the
 * morsel size) of LINEITEM-like columns: Q6's filter, Q13's NOT LIKE filter, a hash aggregation on one BIGINT key
 * (keys drawn from the build's range), and a join probe on one BIGINT key against builds of 57,000 to 1,500,000
 * unique keys (Q4's, Q14's and Q3's sizes). Not run by {@code ./mvnw verify}; {@code bench/jmh} runs them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EngineKernelBenchmark {

    static final int ROWS = 16_384;

    /** The join's build rows: Q4's quarter of ORDERS, Q14's PART, a scale factor's ORDERS. */
    @Param({"57000", "200000", "1500000"})
    public int buildRows;

    private static final Schema LINES = Schema.of(
            new Column("l_partkey", DataType.BIGINT),
            new Column("l_extendedprice", DataType.decimal(2)),
            new Column("l_discount", DataType.decimal(2)),
            new Column("l_quantity", DataType.decimal(2)),
            new Column("l_shipdate", DataType.DATE),
            new Column("o_comment", DataType.varchar(79)));
    private static final Schema PARTS = Schema.of(new Column("p_partkey", DataType.BIGINT));

    /** The benchmarks' input batch; read by the test of their bodies. */
    Batch lines;

    private FilterEvaluator q6Filter;
    private FilterEvaluator q13Filter;
    private Operator aggregation;
    private Operator probe;

    @Setup
    public void setUp() {
        Random random = new Random(1);
        long[] partKeys = new long[ROWS];
        long[] prices = new long[ROWS];
        long[] discounts = new long[ROWS];
        long[] quantities = new long[ROWS];
        int[] shipDates = new int[ROWS];
        String[] comments = new String[ROWS];
        for (int i = 0; i < ROWS; i++) {
            partKeys[i] = 1 + random.nextInt(2 * buildRows); // half of the probes find no match
            prices[i] = 90_000 + random.nextInt(10_000_000);
            discounts[i] = random.nextInt(11);
            quantities[i] = 100L * (1 + random.nextInt(50));
            shipDates[i] = 8036 + random.nextInt(2526); // 1992-01-02 .. 1998-12-01
            comments[i] = random.nextInt(100) == 0
                    ? "quickly special deposits sleep; requests are furiously"
                    : "carefully final packages wake blithely among the ironic accounts " + random.nextInt(1000);
        }
        lines = Batch.of(
                ROWS,
                new LongVector(DataType.BIGINT, partKeys),
                new LongVector(DataType.decimal(2), prices),
                new LongVector(DataType.decimal(2), discounts),
                new LongVector(DataType.decimal(2), quantities),
                new IntVector(DataType.DATE, shipDates),
                new StringVector(DataType.varchar(79), comments));
        Expression q6 = and(
                ge(col("l_shipdate"), date("1994-01-01")),
                lt(col("l_shipdate"), date("1995-01-01")),
                between(col("l_discount"), decimal("0.05"), decimal("0.07")),
                lt(col("l_quantity"), lit(24)));
        q6Filter = new FilterEvaluator(q6, LINES);
        q13Filter = new FilterEvaluator(notLike(col("o_comment"), "%special%requests%"), LINES);
        aggregation = new HashAggregationOperator.Factory(
                        AggregationPhase.PARTIAL,
                        LINES,
                        List.of("l_partkey"),
                        List.of(Plans.countStar("order_count"), Plans.sum(col("l_extendedprice"), "revenue")))
                .create(0);
        JoinBuildOperator.Factory build = new JoinBuildOperator.Factory(PARTS, List.of("p_partkey"));
        Operator builder = build.create(0);
        long[] buildKeys = new long[buildRows];
        for (int i = 0; i < buildRows; i++) {
            buildKeys[i] = i + 1;
        }
        builder.addInput(Batch.of(buildRows, new LongVector(DataType.BIGINT, buildKeys)));
        builder.finish();
        build.complete(1);
        HashJoin join = new HashJoin(
                JoinType.INNER,
                Plans.scan("lineitem", LINES, LINES.names().toArray(new String[0])),
                Plans.scan("part", PARTS, "p_partkey"),
                List.of("l_partkey"),
                List.of("p_partkey"),
                null,
                List.of("l_extendedprice", "p_partkey"));
        probe = new HashJoinProbeOperator.Factory(join, LINES, build).create(0);
    }

    /** Q6's four-term filter (about 2% of the rows pass). */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int filterQ6() {
        return q6Filter.filter(lines);
    }

    /** Q13's {@code o_comment NOT LIKE '%special%requests%'} (about 99% pass). */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int filterNotLike() {
        return q13Filter.filter(lines);
    }

    /** Group by one BIGINT key, COUNT(*) and a DECIMAL SUM (the groups exist after the first batch). */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public boolean aggregateOneLongKey() {
        aggregation.addInput(lines);
        return aggregation.needsInput();
    }

    /** Probe a build of {@code buildRows} unique BIGINT keys; half of the rows find one match; two output columns. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public Batch probeOneLongKey() {
        probe.addInput(lines);
        return probe.getOutput();
    }
}
