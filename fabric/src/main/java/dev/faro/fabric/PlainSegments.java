package dev.faro.fabric;

import java.lang.foreign.MemorySegment;

/**
 * Plain native views of registered memory for per-tuple loops (the joins, SHUFFLE and RECEIVE). A provider may hand out its regions as
 * mapped segments ({@code shm} maps files) while the relations and scratch buffers are plain native segments; when
 * one JVM's hot loops touch both kinds, the JDK's shared memory-access code sees two segment classes and C2 no longer
 * folds its bounds, alignment and liveness checks (a JFR profile of a worker showed {@code checkBounds},
 * {@code isAlignedForElement} and {@code checkValidStateRaw} as calls taking a third of the network pass). The view
 * covers the same bytes with the same lifetime (the region's scope: closing the region still ends every access).
 */
public final class PlainSegments {

    private PlainSegments() {}

    /** A plain native segment over {@code segment}'s bytes, in {@code segment}'s scope. */
    public static MemorySegment of(MemorySegment segment) {
        return segment.isNative() ? segment.reinterpret(segment.byteSize()) : segment;
    }

    /**
     * One plain native segment from the lower start of two native segments to the higher end, in the scope of the
     * one that starts lower, so that a loop can address both through one segment and one offset (the bytes between
     * them are not the caller's: it must stay inside the two). Offsets of {@code segment}'s bytes in it start at
     * {@code segment.address() - spanning(...).address()}.
     */
    public static MemorySegment spanning(MemorySegment first, MemorySegment second) {
        MemorySegment low = first.address() <= second.address() ? first : second;
        long end = Math.max(first.address() + first.byteSize(), second.address() + second.byteSize());
        return low.reinterpret(end - low.address());
    }
}
