package dev.faro.fabric;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Plain native views of registered memory for per-tuple loops (the joins, SHUFFLE and RECEIVE). A provider may hand out its regions as
 * mapped segments ({@code shm} maps files) while the relations and scratch buffers are plain native segments; when
 * one JVM's hot loops touch both kinds, the JDK's shared memory-access code sees two segment classes and C2 no longer
 * folds its bounds, alignment and liveness checks (a JFR profile of a worker showed {@code checkBounds},
 * {@code isAlignedForElement} and {@code checkValidStateRaw} as calls taking a third of the network pass). The view
 * covers the same bytes with the same lifetime (the region's scope: closing the region still ends every access).
 */
public final class PlainSegments {

    /**
     * The process's memory as one plain native segment, addressed by absolute address ({@code segment.address() +
     * offset}): for per-tuple loops whose segments change from call to call, or whose JVM also sees mapped and heap
     * segments, so that their loads and stores carry no call into the JDK's access checks. A constant of one exact
     * class lets C2 fold the checks that, through a segment parameter of unknown class, stay calls in a worker JVM
     * (JFR on {@code faro bench shuffle}: {@code checkBounds} and {@code isAlignedForElement} in 16 % of a SHUFFLE
     * thread's samples, all from the partitioner's key loads, after SHUFFLE's stores had moved here).
     *
     * <p>Hazard: no bounds and no liveness check. The caller checks a whole run's bounds once against the segment it
     * addresses ({@link #checkRange}), and must not use it on memory that can be closed or unmapped during the run
     * (a closed segment would crash the JVM instead of throwing).
     */
    public static final MemorySegment WHOLE_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private PlainSegments() {}

    /**
     * The absolute address of {@code segment}'s bytes {@code [offset, offset + bytes)} for {@link #WHOLE_MEMORY},
     * after checking that they lie inside {@code segment} and that it is native and alive.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the segment
     * @throws IllegalArgumentException if the segment is not native
     * @throws IllegalStateException if the segment's scope is closed
     */
    public static long checkRange(MemorySegment segment, long offset, long bytes) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("not a native segment: " + segment);
        }
        Objects.checkFromIndexSize(offset, bytes, segment.byteSize());
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the segment's scope is closed: " + segment);
        }
        return segment.address() + offset;
    }

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
