package dev.faro.txn.node;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The calling thread's CPU affinity, through Linux's {@code sched_getaffinity} / {@code sched_setaffinity} (thread id
 * 0: the caller). Elsewhere, or when the calls fail, nothing is pinned and the allowed CPUs are unknown (empty).
 *
 * <p>Coordination code: called once per thread, when it starts.
 */
public final class CpuAffinity {

    /** CPU-set bytes passed to the kernel: 1,024 CPUs. */
    private static final long MASK_BYTES = 128;

    /** Characters of a thread's name the kernel keeps ({@code TASK_COMM_LEN} 16 with the terminator). */
    private static final int KERNEL_NAME_CHARS = 15;

    private static final MethodHandle GET = lookup("sched_getaffinity");
    private static final MethodHandle SET = lookup("sched_setaffinity");

    private CpuAffinity() {}

    private static MethodHandle lookup(String name) {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find(name)
                    .map(address -> linker.downcallHandle(
                            address,
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** The CPUs the calling thread may run on, ascending; empty when unknown. */
    public static List<Integer> allowed() {
        if (GET == null) {
            return List.of();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            if ((int) GET.invokeExact(0, MASK_BYTES, mask) != 0) {
                return List.of();
            }
            List<Integer> cpus = new ArrayList<>();
            for (int cpu = 0; cpu < MASK_BYTES * 8; cpu++) {
                if ((mask.get(ValueLayout.JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0) {
                    cpus.add(cpu);
                }
            }
            return List.copyOf(cpus);
        } catch (Throwable t) {
            return List.of();
        }
    }

    /**
     * Restricts the calling thread to {@code cpus} (nothing happens for an empty list).
     *
     * @return whether the thread is now restricted to them
     */
    public static boolean pin(List<Integer> cpus) {
        return pinThread(0, cpus);
    }

    /**
     * Restricts the thread with Linux thread id {@code threadId} (0: the caller) to {@code cpus}; used for threads
     * this code did not start (a NIC's or a fabric's progress thread, found with {@link #threadIds}).
     *
     * @return whether the thread is now restricted to them
     */
    public static boolean pinThread(int threadId, List<Integer> cpus) {
        if (SET == null || cpus.isEmpty()) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            for (int cpu : cpus) {
                if (cpu < 0 || cpu >= MASK_BYTES * 8) {
                    return false;
                }
                mask.set(ValueLayout.JAVA_BYTE, cpu / 8, (byte)
                        (mask.get(ValueLayout.JAVA_BYTE, cpu / 8) | (1 << (cpu % 8))));
            }
            return (int) SET.invokeExact(threadId, MASK_BYTES, mask) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * The Linux thread ids of this process's threads whose name starts with {@code namePrefix} (the kernel keeps a
     * thread's first 15 characters, which is what is compared); empty where {@code /proc/self/task} does not exist.
     */
    public static List<Integer> threadIds(String namePrefix) {
        String prefix = namePrefix.substring(0, Math.min(namePrefix.length(), KERNEL_NAME_CHARS));
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return List.of();
        }
        List<Integer> ids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tasks)) {
            for (Path task : entries) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().startsWith(prefix)) {
                        ids.add(Integer.parseInt(task.getFileName().toString()));
                    }
                } catch (IOException | NumberFormatException e) {
                    // the thread ended while we looked: not one to pin
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.copyOf(ids);
    }

    /**
     * Restricts every thread of this process whose name starts with {@code namePrefix} (see {@link #threadIds}) to
     * {@code cpus}.
     *
     * @return how many threads were pinned
     */
    public static int pinThreadsNamed(String namePrefix, List<Integer> cpus) {
        int pinned = 0;
        for (int id : threadIds(namePrefix)) {
            if (pinThread(id, cpus)) {
                pinned++;
            }
        }
        return pinned;
    }

    /**
     * Node {@code node}'s share of {@code allowed} when {@code nodes} nodes share the host: {@code allowed.size() /
     * nodes} CPUs each (at least one), consecutive, node 0 first, wrapping around when there are more nodes than CPUs.
     * Empty when {@code allowed} is.
     */
    public static List<Integer> shareOf(List<Integer> allowed, int node, int nodes) {
        if (node < 0 || nodes < 1 || node >= nodes) {
            throw new IllegalArgumentException("node " + node + " of " + nodes);
        }
        if (allowed.isEmpty()) {
            return List.of();
        }
        int each = Math.max(1, allowed.size() / nodes);
        List<Integer> share = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            share.add(allowed.get((node * each + i) % allowed.size()));
        }
        return List.copyOf(share);
    }
}
