package dev.faro.engine.operator;

import dev.faro.engine.expression.Evaluator;
import dev.faro.engine.expression.ExpressionCompiler;
import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.AggregateFunction;
import dev.faro.engine.plan.AggregateSchemas;
import dev.faro.engine.plan.AggregationPhase;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Hash aggregation, a sink: each thread aggregates its morsels into its own {@link GroupTable}; {@link
 * Factory#complete} merges the threads' tables (SINGLE, FINAL) or emits each as is (PARTIAL: the FINAL phase merges
 * after the exchange) and renders the output batches.
 *
 * <p>Data path: per batch, the key normalization and accumulator loops allocate nothing per row.
 */
public final class HashAggregationOperator implements Operator {

    /** Rows per output batch. */
    static final int OUTPUT_BATCH_ROWS = 16_384;

    private final Factory factory;
    private final KeyColumns keys;
    private final GroupTable table;
    private final Accumulator[] accumulators;
    private final Evaluator[] arguments;
    private boolean finished;

    private HashAggregationOperator(Factory factory) {
        this.factory = factory;
        this.keys = new KeyColumns(factory.keyColumns);
        this.table = new GroupTable(factory.keyTypes);
        this.accumulators = factory.newAccumulators();
        this.arguments = new Evaluator[accumulators.length];
        if (factory.phase != AggregationPhase.FINAL) {
            for (int a = 0; a < arguments.length; a++) {
                AggregateCall call = factory.aggregates.get(a);
                if (call.argument() != null) {
                    arguments[a] = ExpressionCompiler.compile(call.argument(), factory.input);
                }
            }
        }
    }

    @Override
    public boolean needsInput() {
        return !finished;
    }

    @Override
    public void addInput(Batch batch) {
        int rows = batch.rowCount();
        if (table.needsRowHashes()) {
            keys.load(batch);
        } else {
            keys.normalize(batch);
        }
        int[] groupIds = table.assign(keys);
        int groups = table.groupCount();
        for (int a = 0; a < accumulators.length; a++) {
            Accumulator accumulator = accumulators[a];
            accumulator.ensureGroups(groups);
            if (factory.phase == AggregationPhase.FINAL) {
                accumulator.addState(groupIds, batch, factory.stateColumns[a], rows);
            } else {
                accumulator.addRaw(groupIds, arguments[a] == null ? null : arguments[a].evaluate(batch), rows);
            }
        }
    }

    @Override
    public Batch getOutput() {
        return null;
    }

    @Override
    public void finish() {
        if (!finished) {
            finished = true;
            factory.finished.add(this);
        }
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Renders groups of this operator's table as output batches in {@code phase}'s format. */
    private void render(List<Batch> output, boolean state) {
        int groups = table.groupCount();
        for (int from = 0; from < groups; from += OUTPUT_BATCH_ROWS) {
            int count = Math.min(OUTPUT_BATCH_ROWS, groups - from);
            List<Vector> columns = new ArrayList<>();
            for (int k = 0; k < factory.keyColumns.length; k++) {
                columns.add(table.keyVector(k, from, count));
            }
            for (Accumulator accumulator : accumulators) {
                if (state) {
                    columns.addAll(accumulator.state(from, count));
                } else {
                    columns.add(accumulator.result(from, count));
                }
            }
            output.add(new Batch(count, columns));
        }
    }

    /** Makes room for {@code groups} groups (an estimate) in the table and the accumulators before a merge. */
    private void reserve(long groups) {
        int expected = (int) Math.min(Integer.MAX_VALUE / 4, groups);
        table.reserve(expected);
        for (Accumulator accumulator : accumulators) {
            accumulator.ensureGroups(expected);
        }
    }

    /** Merges {@code other}'s groups of hash partition {@code partition} (of {@code partitions}) into this one's. */
    private void merge(HashAggregationOperator other, int partition, int partitions) {
        int otherGroups = other.table.groupCount();
        for (int group = 0; group < otherGroups; group++) {
            if (partitions > 1 && Long.remainderUnsigned(other.table.hash(group) >>> 32, partitions) != partition) {
                continue;
            }
            int target = table.findOrInsert(other.table, group);
            for (int a = 0; a < accumulators.length; a++) {
                accumulators[a].ensureGroups(table.groupCount());
                accumulators[a].merge(target, other.accumulators[a], group);
            }
        }
    }

    /** The aggregation of one plan node; {@link #output()} holds the result after {@link #complete}. */
    public static final class Factory implements SinkFactory {
        private final AggregationPhase phase;
        private final Schema input;
        private final List<AggregateCall> aggregates;
        private final int[] keyColumns;
        private final List<DataType> keyTypes;
        private final DataType[] argumentTypes;
        private final int[] stateColumns;
        private final Queue<HashAggregationOperator> finished = new ConcurrentLinkedQueue<>();
        private volatile List<Batch> output;

        public Factory(AggregationPhase phase, Schema input, List<String> groupKeys, List<AggregateCall> aggregates) {
            this.phase = phase;
            this.input = input;
            this.aggregates = List.copyOf(aggregates);
            AggregateSchemas.output(phase, input, groupKeys, aggregates); // validates
            this.keyColumns = new int[groupKeys.size()];
            List<DataType> types = new ArrayList<>();
            for (int k = 0; k < keyColumns.length; k++) {
                keyColumns[k] = input.indexOf(groupKeys.get(k));
                types.add(input.type(keyColumns[k]));
            }
            this.keyTypes = List.copyOf(types);
            this.argumentTypes = new DataType[aggregates.size()];
            this.stateColumns = new int[aggregates.size()];
            for (int a = 0; a < argumentTypes.length; a++) {
                AggregateCall call = aggregates.get(a);
                argumentTypes[a] = AggregateSchemas.argumentType(phase, input, call);
                if (phase == AggregationPhase.FINAL) {
                    if (call.function() == AggregateFunction.AVG) {
                        stateColumns[a] = input.indexOf(call.name() + "$sum");
                        if (input.indexOf(call.name() + "$count") != stateColumns[a] + 1) {
                            throw new IllegalArgumentException(
                                    "AVG state columns must be adjacent: name=" + call.name());
                        }
                    } else {
                        stateColumns[a] = input.indexOf(call.name());
                    }
                }
            }
        }

        private Accumulator[] newAccumulators() {
            Accumulator[] accumulators = new Accumulator[aggregates.size()];
            for (int a = 0; a < accumulators.length; a++) {
                accumulators[a] = Accumulator.create(aggregates.get(a).function(), argumentTypes[a]);
            }
            return accumulators;
        }

        @Override
        public Operator create(int thread) {
            return new HashAggregationOperator(this);
        }

        @Override
        public void complete(int threads) {
            List<Batch> batches = new ArrayList<>();
            List<HashAggregationOperator> operators = new ArrayList<>(finished);
            if (phase == AggregationPhase.PARTIAL) {
                for (HashAggregationOperator operator : operators) {
                    operator.render(batches, true);
                }
            } else if (threads <= 1
                    || operators.size() <= 1
                    || ParallelTasks.threadsFor(totalGroups(operators), threads) == 1) {
                HashAggregationOperator merged =
                        operators.isEmpty() ? new HashAggregationOperator(this) : operators.getFirst();
                merged.reserve(totalGroups(operators));
                for (int i = 1; i < operators.size(); i++) {
                    merged.merge(operators.get(i), 0, 1);
                }
                finishMerged(merged, batches);
            } else {
                // partition-parallel merge: thread p merges the groups whose hash falls into partition p
                HashAggregationOperator[] partitions = new HashAggregationOperator[threads];
                long expected = totalGroups(operators) / threads + 1;
                ParallelTasks.run(threads, "aggregation-merge", p -> {
                    HashAggregationOperator merged = new HashAggregationOperator(this);
                    merged.reserve(expected); // a partition's share if the threads' groups are disjoint
                    for (HashAggregationOperator operator : operators) {
                        merged.merge(operator, p, threads);
                    }
                    partitions[p] = merged;
                });
                for (HashAggregationOperator merged : partitions) {
                    if (merged == partitions[0] || merged.table.groupCount() > 0) {
                        finishMerged(merged, batches);
                    }
                }
            }
            output = List.copyOf(batches);
        }

        /** The groups of all {@code operators} together (an upper bound of the merged count). */
        private static long totalGroups(List<HashAggregationOperator> operators) {
            long groups = 0;
            for (HashAggregationOperator operator : operators) {
                groups += operator.table.groupCount();
            }
            return groups;
        }

        private static void finishMerged(HashAggregationOperator merged, List<Batch> batches) {
            merged.table.ensureGlobalGroup();
            for (Accumulator accumulator : merged.accumulators) {
                accumulator.ensureGroups(merged.table.groupCount());
            }
            merged.render(batches, false);
        }

        /** The aggregated batches; available after {@link #complete}. */
        public List<Batch> output() {
            List<Batch> result = output;
            if (result == null) {
                throw new IllegalStateException("the aggregation has not completed");
            }
            return result;
        }
    }
}
