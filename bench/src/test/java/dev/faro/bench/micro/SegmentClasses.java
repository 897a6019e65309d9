package dev.faro.bench.micro;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a benchmark JVM's memory-access code see the segment classes a worker JVM's does: native, mapped (registered
 * memory of the {@code shm} fabric) and heap segments, each read and written through the JDK's shared access code
 * often enough to be in its profiles before the measured code compiles.
 */
final class SegmentClasses {

    private static final int ROUNDS = 200_000;
    private static final long BYTES = 4096;

    private SegmentClasses() {}

    /** Reads and writes a native, a mapped (a deleted temporary file) and a heap segment allocated in {@code arena}. */
    static long mix(Arena arena) {
        try {
            Path file = Files.createTempFile("faro-bench-segments-", ".bin");
            MemorySegment mapped;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, BYTES, arena);
            } finally {
                Files.delete(file);
            }
            MemorySegment[] segments = {
                arena.allocate(BYTES, 64), mapped, MemorySegment.ofArray(new long[(int) (BYTES / 8)])
            };
            long sum = 0;
            for (int round = 0; round < ROUNDS; round++) {
                MemorySegment segment = segments[round % segments.length];
                long offset = (round * 8L) % (BYTES - 16);
                segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, round);
                sum += segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8);
                sum += segment.get(ValueLayout.JAVA_INT, offset & ~3L);
                segment.set(ValueLayout.JAVA_LONG, offset & ~7L, sum);
            }
            return sum;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
