package dev.faro.engine.operator;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.FilterEvaluator;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Probes a shared {@link JoinHashTable} with each batch: collects the candidate (probe row, build row) pairs, keeps
 * those passing the residual filter, and emits the join's output for the batch (INNER pairs; LEFT pairs plus
 * unmatched probe rows with NULL build columns; SEMI/ANTI the probe rows with/without a match).
 *
 * <p>Data path: the pair arrays are reused across batches; output vectors are new per batch, except that a column
 * nothing above reads gets one reused vector of default values (or, for SEMI/ANTI, the input's vector).
 */
public final class HashJoinProbeOperator extends StreamingOperator {

    /** Rows a batch needs for its filter rejections to decide whether filtering pays. */
    private static final int FILTER_SAMPLE_ROWS = 1024;

    /**
     * Rows per chunk of the one-key probe, as for the aggregation's prefetching: their buckets' cache lines (at most
     * 16 KiB) stay in L1 between passes.
     */
    private static final int CHUNK_ROWS = LongGroupSlots.PREFETCH_ROWS;

    private final Factory factory;
    private final KeyColumns keys;
    private final FilterEvaluator residual;
    /** The filter fused below the probe (see {@link Factory}), or null. */
    private final FilterEvaluator prefilter;

    private JoinHashTable table;
    private int[] probeRows = new int[1024];
    private int[] buildRows = new int[1024];
    private boolean[] matched = new boolean[1024];
    private int[] selection = new int[1024];
    /** {@link #findPairsOneLong}'s "no previous lookup" (a match is a row, at least 0; no partner is -1). */
    private static final int NO_LOOKUP = -2;
    /** Rows of one chunk of the batch that may have a partner ({@link #findPairsOneLong}). */
    private final int[] candidates = new int[CHUNK_ROWS];
    /** The rows of a batch {@link #findPairs} looks up when a bitmap of the first key rejected the others. */
    private int[] rows = new int[0];
    /** The bucket of each of {@link #candidates}. */
    private final int[] candidateBuckets = new int[CHUNK_ROWS];
    /** Whether probes consult the table's {@link KeyBitmap} or {@link JoinFilter} (see {@link #observeFilter}). */
    private boolean filtering = true;
    /** Where {@link #findPairsOneLong}'s prefetching reads go, so that the JIT cannot drop them. */
    private long prefetched;
    /** Per output column nothing above reads: a vector of default values standing in for it (grown, never written). */
    private final Vector[] fillers;

    private HashJoinProbeOperator(Factory factory) {
        this.factory = factory;
        this.fillers = new Vector[factory.output.length];
        this.keys = new KeyColumns(factory.probeKeys);
        this.residual = factory.residual == null ? null : new FilterEvaluator(factory.residual, factory.combined);
        this.prefilter = factory.prefilter == null ? null : new FilterEvaluator(factory.prefilter, factory.probe);
    }

    @Override
    protected Batch process(Batch batch) {
        if (table == null) {
            table = factory.build.table();
        }
        int rows = batch.rowCount();
        // the rows to probe: every row, or those the fused filter keeps (positions into the batch, ascending)
        int[] selected = null;
        int count = rows;
        if (prefilter != null) {
            count = prefilter.filter(batch);
            if (count == 0) {
                return null;
            }
            if (count < rows) {
                selected = prefilter.selection();
            }
        }
        keys.normalize(batch); // hashed by findPairs where it needs the hashes
        int pairs = findPairs(rows, selected, count);
        if (residual != null && pairs > 0) {
            pairs = applyResidual(batch, pairs);
        }
        return switch (factory.type) {
            case INNER -> output(batch, pairs, 0);
            case LEFT -> {
                markMatched(rows, pairs);
                int unmatched = 0;
                for (int j = 0; j < count; j++) {
                    int i = selected == null ? j : selected[j];
                    if (!matched[i]) {
                        ensurePairs(pairs + unmatched + 1);
                        probeRows[pairs + unmatched] = i;
                        buildRows[pairs + unmatched] = -1;
                        unmatched++;
                    }
                }
                yield output(batch, pairs, unmatched);
            }
            case SEMI, ANTI -> {
                markMatched(rows, pairs);
                boolean keep = factory.type == JoinType.SEMI;
                if (selection.length < rows) {
                    selection = new int[rows];
                }
                int kept = 0;
                for (int j = 0; j < count; j++) {
                    int i = selected == null ? j : selected[j];
                    if (matched[i] == keep) {
                        selection[kept++] = i;
                    }
                }
                if (kept == 0) {
                    yield null;
                }
                List<Vector> columns = new ArrayList<>(factory.output.length);
                for (int o = 0; o < factory.output.length; o++) {
                    Vector column = batch.column(factory.output[o]);
                    columns.add(
                            kept == rows || factory.unread[o] ? column : VectorBuilder.gather(column, selection, kept));
                }
                yield new Batch(kept, columns);
            }
        };
    }

    /**
     * The (probe row, build row) pairs of the rows to probe: {@code selected[0, count)} of the batch's {@code rows},
     * or every row when {@code selected} is null; in {@link #probeRows} and {@link #buildRows}, their count returned.
     */
    private int findPairs(int rows, int[] selected, int count) {
        long[] hashes = keys.hashes;
        boolean[] anyNull = keys.anyNull;
        KeyColumns buildKeys = table.keys;
        long[] buildHashes = buildKeys.hashes;
        int[] heads = table.heads;
        int[] next = table.next;
        int mask = table.mask;
        boolean firstOnly = factory.type == JoinType.SEMI || factory.type == JoinType.ANTI;
        firstOnly &= residual == null;
        int pairs = 0;
        if (table.headKeys != null && keys.strings[0] == null) {
            return findPairsOneLong(selected, count, firstOnly);
        }
        KeyBitmap bitmap = filtering ? table.bitmap : null;
        JoinFilter filter = filtering ? table.filter : null;
        int rejected = 0;
        int probed = count;
        int[] listed = selected;
        if (bitmap != null) { // only the rows whose first key some build row has are hashed and looked up
            listed = rowList(rows);
            count = 0;
            long[] first = keys.longs[0];
            boolean[] firstNulls = keys.nulls[0];
            for (int j = 0; j < probed; j++) {
                int i = selected == null ? j : selected[j];
                if (firstNulls != null && firstNulls[i]) {
                    continue; // NULL matches nothing
                }
                if (bitmap.contains(first[i])) {
                    listed[count++] = i;
                } else {
                    rejected++;
                }
            }
            keys.hashRows(listed, count);
        } else if (selected != null) {
            keys.hashRows(selected, count);
        } else {
            keys.hashRange(0, rows);
        }
        for (int c = 0; c < count; c++) {
            int i = listed == null ? c : listed[c];
            if (anyNull[i]) {
                continue;
            }
            long hash = hashes[i];
            if (filter != null && !filter.mightContain(hash)) {
                rejected++;
                continue;
            }
            for (int b = heads[(int) hash & mask]; b >= 0; b = next[b]) {
                if (buildHashes[b] == hash && keys.equalsRow(i, buildKeys, b)) {
                    ensurePairs(pairs + 1);
                    probeRows[pairs] = i;
                    buildRows[pairs] = b;
                    pairs++;
                    if (firstOnly) {
                        break;
                    }
                }
            }
        }
        observeFilter(bitmap != null || filter != null, probed, rejected);
        return pairs;
    }

    /** {@link #rows}, at least {@code rows} long. */
    private int[] rowList(int rows) {
        if (this.rows.length < rows) {
            this.rows = new int[rows];
        }
        return this.rows;
    }

    /**
     * {@link #findPairs} for one non-string key: the bucket's first key read beside its row ({@link
     * JoinHashTable#headKeys}), the rest of the chain only when the build has duplicate keys or the first one differs.
     */
    private int findPairsOneLong(int[] selected, int rows, boolean firstOnly) { // rows: how many to probe
        boolean[] nulls = keys.nulls[0];
        long[] values = keys.longs[0];
        long[] buildValues = table.keys.longs[0];
        long[] headKeys = table.headKeys;
        int[] next = table.next;
        int mask = table.mask;
        boolean stopAtFirst = firstOnly || table.uniqueKeys;
        KeyBitmap bitmap = filtering ? table.bitmap : null;
        JoinFilter filter = filtering ? table.filter : null;
        int rejected = 0;
        boolean prefetch = mask + 1 >= LongGroupSlots.PREFETCH_MIN_SLOTS;
        int[] candidates = this.candidates;
        int[] buckets = this.candidateBuckets;
        int pairs = 0;
        for (int from = 0; from < rows; from += CHUNK_ROWS) {
            int to = Math.min(rows, from + CHUNK_ROWS);
            // pass 1: the rows that may have a partner, hashed (only they); on a large table, read their buckets now
            // (group prefetching: independent loads whose cache misses overlap, where pass 2's would come one after
            // another)
            int count = 0;
            long touched = 0;
            for (int j = from; j < to; j++) {
                int i = selected == null ? j : selected[j];
                if (nulls != null && nulls[i]) {
                    continue; // NULL matches nothing
                }
                long value = values[i];
                if (bitmap != null && !bitmap.contains(value)) {
                    rejected++;
                    continue; // no build row has this key
                }
                long hash = KeyColumns.hashOfOneKey(value);
                if (filter != null && !filter.mightContain(hash)) {
                    rejected++;
                    continue; // the filter knows that no build row has this key
                }
                int bucket = (int) hash & mask;
                candidates[count] = i;
                buckets[count++] = bucket;
                if (prefetch) {
                    touched += headKeys[2 * bucket + 1];
                }
            }
            prefetched += touched;
            // pass 2: the bucket's first key beside its row, the chain only past it; a row with the key of the
            // previous candidate (clustered keys, e.g. LINEITEM's order keys) reuses its first match when one is all
            // it needs
            long lastValue = 0;
            int lastMatch = NO_LOOKUP;
            for (int c = 0; c < count; c++) {
                int i = candidates[c];
                long value = values[i];
                int b;
                if (stopAtFirst && lastMatch != NO_LOOKUP && value == lastValue) {
                    b = lastMatch;
                } else {
                    b = firstMatch(value, buckets[c], headKeys, next, buildValues);
                    lastValue = value;
                    lastMatch = b;
                }
                while (b >= 0) {
                    if (pairs == probeRows.length) {
                        ensurePairs(pairs + 1);
                    }
                    probeRows[pairs] = i;
                    buildRows[pairs] = b;
                    pairs++;
                    if (stopAtFirst) {
                        break;
                    }
                    b = next[b];
                    while (b >= 0 && buildValues[b] != value) {
                        b = next[b];
                    }
                }
            }
        }
        observeFilter(bitmap != null || filter != null, rows, rejected);
        return pairs;
    }

    /** The first build row whose one long key is {@code value} in bucket {@code bucket}, or -1 (no partner). */
    private static int firstMatch(long value, int bucket, long[] headKeys, int[] next, long[] buildValues) {
        long entry = headKeys[2 * bucket + 1];
        if (entry < 0) {
            return -1;
        }
        int b = (int) entry;
        if (headKeys[2 * bucket] == value) {
            return b;
        }
        if ((entry & JoinHashTable.MORE_ROWS) == 0) {
            return -1; // the only row of the bucket has another key: no need to touch the chain
        }
        b = next[b];
        while (b >= 0 && buildValues[b] != value) {
            b = next[b];
        }
        return b;
    }

    /**
     * Adaptive filtering: once a batch of at least {@value #FILTER_SAMPLE_ROWS} rows went through the filter (or bitmap) and it
     * rejected fewer than half of them, this operator stops consulting it (most probes find a partner: the filter
     * would only add work); the table is probed as without a filter, so the output is the same.
     */
    private void observeFilter(boolean consulted, int rows, int rejected) {
        if (consulted && rows >= FILTER_SAMPLE_ROWS && rejected * 2 < rows) {
            filtering = false;
        }
    }

    private int applyResidual(Batch batch, int pairs) {
        List<Vector> columns = new ArrayList<>();
        for (Vector column : batch.columns()) {
            columns.add(VectorBuilder.gather(column, probeRows, pairs));
        }
        for (Vector column : table.rows.columns()) {
            columns.add(VectorBuilder.gather(column, buildRows, pairs));
        }
        int passing = residual.filter(new Batch(pairs, columns));
        int[] chosen = residual.selection();
        for (int i = 0; i < passing; i++) {
            probeRows[i] = probeRows[chosen[i]];
            buildRows[i] = buildRows[chosen[i]];
        }
        return passing;
    }

    private void markMatched(int rows, int pairs) {
        if (matched.length < rows) {
            matched = new boolean[rows];
        }
        Arrays.fill(matched, 0, rows, false);
        for (int p = 0; p < pairs; p++) {
            matched[probeRows[p]] = true;
        }
    }

    private Batch output(Batch batch, int pairs, int unmatched) {
        int count = pairs + unmatched;
        if (count == 0) {
            return null;
        }
        int probeColumns = batch.columnCount();
        List<Vector> columns = new ArrayList<>(factory.output.length);
        for (int o = 0; o < factory.output.length; o++) {
            int column = factory.output[o];
            if (factory.unread[o]) {
                columns.add(filler(o, count));
            } else if (column < probeColumns) {
                columns.add(VectorBuilder.gather(batch.column(column), probeRows, count));
            } else {
                Vector source = table.rows.column(column - probeColumns);
                if (unmatched == 0) {
                    columns.add(VectorBuilder.gather(source, buildRows, count));
                } else {
                    VectorBuilder builder = VectorBuilder.create(source.type(), count);
                    builder.gather(source, buildRows, pairs, 0);
                    for (int i = pairs; i < count; i++) {
                        builder.setNull(i);
                    }
                    columns.add(builder.build());
                }
            }
        }
        return new Batch(count, columns);
    }

    /** A vector of output column {@code o}'s type with at least {@code count} rows, for a column nothing reads. */
    private Vector filler(int o, int count) {
        Vector filler = fillers[o];
        if (filler == null || filler.size() < count) {
            filler = Vector.allocate(factory.outputTypes[o], Math.max(count, 1024), false);
            fillers[o] = filler;
        }
        return filler;
    }

    private void ensurePairs(int pairs) {
        if (pairs > probeRows.length) {
            probeRows = Arrays.copyOf(probeRows, pairs * 2);
            buildRows = Arrays.copyOf(buildRows, pairs * 2);
        }
    }

    /** Probes the table of {@code build} with batches of {@code probe} for the join node {@code join}. */
    public static final class Factory implements OperatorFactory {
        private final JoinType type;
        private final JoinBuildOperator.Factory build;
        private final int[] probeKeys;
        private final Expression residual;
        private final Schema combined;
        private final int[] output;
        private final DataType[] outputTypes;
        private final boolean[] unread;
        private final Schema probe;
        private final Expression prefilter;

        /** Every output column materialised. */
        public Factory(HashJoin join, Schema probe, JoinBuildOperator.Factory build) {
            this(join, probe, build, null);
        }

        public Factory(HashJoin join, Schema probe, JoinBuildOperator.Factory build, boolean[] unread) {
            this(join, probe, build, unread, null);
        }

        /**
         * {@code unread[o]} (null: none) says that nothing above the join reads its output column {@code o}: that
         * column then holds unspecified values (see {@link dev.faro.engine.exchange.RequiredColumns#unread}). A
         * non-null {@code prefilter} is a filter on the probe side fused into the probe: only the rows where it is
         * TRUE are probed, and of the probe's columns only the matched rows' are gathered (where a filter operator
         * before the probe would gather every read column of every row it keeps).
         */
        public Factory(
                HashJoin join, Schema probe, JoinBuildOperator.Factory build, boolean[] unread, Expression prefilter) {
            this.type = join.type();
            this.probe = probe;
            this.prefilter = prefilter;
            if (prefilter != null) {
                new FilterEvaluator(prefilter, probe); // validates
            }
            this.build = build;
            this.probeKeys = new int[join.probeKeys().size()];
            for (int k = 0; k < probeKeys.length; k++) {
                probeKeys[k] = probe.indexOf(join.probeKeys().get(k));
            }
            this.residual = join.residual();
            this.combined = HashJoin.combined(probe, build.schema());
            Schema visible = type == JoinType.SEMI || type == JoinType.ANTI ? probe : combined;
            List<String> names = join.outputColumns().isEmpty() ? visible.names() : join.outputColumns();
            this.output = new int[names.size()];
            this.outputTypes = new DataType[output.length];
            for (int i = 0; i < output.length; i++) {
                output[i] = visible.indexOf(names.get(i));
                outputTypes[i] = visible.type(output[i]);
            }
            if (unread != null && unread.length != output.length) {
                throw new IllegalArgumentException(
                        "one flag per output column: unread=" + unread.length + " columns=" + output.length);
            }
            this.unread = unread == null ? new boolean[output.length] : unread.clone();
        }

        @Override
        public Operator create(int thread) {
            return new HashJoinProbeOperator(this);
        }
    }
}
