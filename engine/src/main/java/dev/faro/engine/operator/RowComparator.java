package dev.faro.engine.operator;

import dev.faro.engine.expression.Coercions;
import dev.faro.engine.plan.SortKey;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DoubleVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Vector;
import java.util.List;

/** Compares two rows of one batch by sort keys (direction and NULL placement per key). Allocation-free compares. */
final class RowComparator {

    private final Vector[] vectors;
    private final long[][] longs;
    private final double[][] doubles;
    private final String[][] strings;
    private final boolean[] ascending;
    private final boolean[] nullsFirst;

    RowComparator(Batch rows, Schema schema, List<SortKey> keys) {
        int n = keys.size();
        vectors = new Vector[n];
        longs = new long[n][];
        doubles = new double[n][];
        strings = new String[n][];
        ascending = new boolean[n];
        nullsFirst = new boolean[n];
        for (int k = 0; k < n; k++) {
            SortKey key = keys.get(k);
            Vector vector = rows.column(schema.indexOf(key.column()));
            vectors[k] = vector;
            ascending[k] = key.ascending();
            nullsFirst[k] = key.nullsFirst();
            switch (vector) {
                case StringVector s -> strings[k] = s.values();
                case DoubleVector d -> doubles[k] = d.values();
                default ->
                    longs[k] = Coercions.longs(
                            vector, rows.rowCount(), vector.type().scale());
            }
        }
    }

    int compare(int a, int b) {
        for (int k = 0; k < vectors.length; k++) {
            boolean nullA = vectors[k].isNull(a);
            boolean nullB = vectors[k].isNull(b);
            if (nullA || nullB) {
                if (nullA && nullB) {
                    continue;
                }
                return nullA == nullsFirst[k] ? -1 : 1;
            }
            int c;
            if (strings[k] != null) {
                c = strings[k][a].compareTo(strings[k][b]);
            } else if (doubles[k] != null) {
                c = Double.compare(doubles[k][a], doubles[k][b]);
            } else {
                c = Long.compare(longs[k][a], longs[k][b]);
            }
            if (c != 0) {
                return ascending[k] ? c : -c;
            }
        }
        return 0;
    }

    /** Sorts {@code index[0..n)} by this comparator (a stable merge sort). */
    void sort(int[] index, int n) {
        int[] buffer = new int[n];
        mergeSort(index, buffer, 0, n);
    }

    /**
     * Puts into {@code index[0..k)} the first {@code k} rows of {@code index[0..n)} (which holds 0..n-1 in order) in
     * the order {@link #sort} would give them, ties kept in row order. With {@code k} small beside {@code n} it keeps
     * the best {@code k} rows in a bounded heap (n log k compares) and sorts only those; otherwise it sorts all.
     */
    void sortFirst(int[] index, int n, int k) {
        if ((long) k * 8 >= n) {
            sort(index, n);
            return;
        }
        if (k <= 0) {
            return;
        }
        int[] heap = new int[k]; // a max-heap by (row order, row number): its root the worst row kept
        for (int row = 0; row < k; row++) {
            heap[row] = row;
            siftUp(heap, row);
        }
        for (int row = k; row < n; row++) {
            if (before(row, heap[0])) {
                heap[0] = row;
                siftDown(heap, k);
            }
        }
        java.util.Arrays.sort(heap); // by row number, so that the stable sort keeps ties in row order
        System.arraycopy(heap, 0, index, 0, k);
        sort(index, k);
    }

    /** Whether row {@code a} comes before row {@code b}: by the keys, then by row number. */
    private boolean before(int a, int b) {
        int c = compare(a, b);
        return c < 0 || c == 0 && a < b;
    }

    private void siftUp(int[] heap, int at) {
        int child = at;
        while (child > 0) {
            int parent = (child - 1) >>> 1;
            if (!before(heap[parent], heap[child])) {
                return;
            }
            int swap = heap[parent];
            heap[parent] = heap[child];
            heap[child] = swap;
            child = parent;
        }
    }

    private void siftDown(int[] heap, int size) {
        int parent = 0;
        while (true) {
            int worst = parent;
            int left = 2 * parent + 1;
            if (left < size && before(heap[worst], heap[left])) {
                worst = left;
            }
            if (left + 1 < size && before(heap[worst], heap[left + 1])) {
                worst = left + 1;
            }
            if (worst == parent) {
                return;
            }
            int swap = heap[parent];
            heap[parent] = heap[worst];
            heap[worst] = swap;
            parent = worst;
        }
    }

    private void mergeSort(int[] a, int[] buffer, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int value = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], value) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = value;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(a, buffer, from, middle);
        mergeSort(a, buffer, middle, to);
        if (compare(a[middle - 1], a[middle]) <= 0) {
            return;
        }
        System.arraycopy(a, from, buffer, from, to - from);
        int i = from;
        int j = middle;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < middle && compare(buffer[i], buffer[j]) <= 0)) {
                a[k] = buffer[i++];
            } else {
                a[k] = buffer[j++];
            }
        }
    }
}
