package dev.faro.join.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Copies a window's longs out, for assertions. */
final class MemorySegmentCopy {

    private MemorySegmentCopy() {}

    static void toArray(RmaWindow window, long[] into) {
        MemorySegment.copy(window.segment(), ValueLayout.JAVA_LONG, 0, into, 0, into.length);
    }
}
