package dev.faro.zerosided.link;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Linux's {@code futex(2)} on a 32-bit word of memory that processes share (a {@code MAP_SHARED} file mapping: the
 * kernel keys such a futex by file and offset, so a waiter in one process is woken by a waker in another), called
 * through the foreign-function linker. The JDK has no cross-process wait primitive: {@code LockSupport} parks only
 * threads of this JVM, and a pipe or socket as a wake channel costs a second object per port and a read/write pair
 * per wake-up where the futex costs one system call on each side and nothing while nobody sleeps. Only the private
 * variant's flag ({@code FUTEX_PRIVATE_FLAG}) is left out: the word is shared.
 *
 * <p>{@link #await} sleeps only while the word still holds the expected value (the kernel compares and queues the
 * caller atomically), so a wake-up between the caller's last check and its sleep is not lost: the caller returns at
 * once. On a system without the call (not Linux on x86-64 or AArch64, or the linker refused) {@link #available()} is
 * false and the callers wait as they would without it.
 *
 * <p>Data path: both calls are allocation-free; addresses are passed as raw words, the timeout through a 16-byte
 * {@code struct timespec} the caller owns.
 */
final class SharedFutex {

    /** Bytes of the {@code struct timespec} {@link #await} takes (two 64-bit words: seconds, nanoseconds). */
    static final long TIMESPEC_LENGTH = 16;

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;

    private static final long SYSCALL_NUMBER = futexSyscallNumber();
    private static final MethodHandle WAIT = downcall(false);
    private static final MethodHandle WAKE = downcall(true);

    private SharedFutex() {}

    /** Whether the futex call is there; when not, {@link #await} and {@link #wake} do nothing. */
    static boolean available() {
        return WAIT != null && WAKE != null;
    }

    /**
     * Sleeps while the 32-bit word at {@code wordAddress} holds {@code expected}, until {@link #wake} on the same
     * word, about {@code timeoutNanos} (plus the kernel's timer slack), or a signal, whichever comes first. Returns at
     * once when the word holds another value. The word must be 4-byte aligned and stay mapped during the call.
     *
     * @param timespec the caller's 16-byte scratch for the timeout, used by one thread at a time
     */
    static void await(long wordAddress, int expected, long timeoutNanos, MemorySegment timespec) {
        if (WAIT == null) {
            return;
        }
        timespec.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
        timespec.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
        try {
            long ignored = (long) WAIT.invokeExact(
                    SYSCALL_NUMBER, wordAddress, (long) FUTEX_WAIT, (long) expected, timespec.address(), 0L, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** Wakes up to {@code count} threads sleeping in {@link #await} on the word at {@code wordAddress}. */
    static void wake(long wordAddress, int count) {
        if (WAKE == null) {
            return;
        }
        try {
            long ignored =
                    (long) WAKE.invokeExact(SYSCALL_NUMBER, wordAddress, (long) FUTEX_WAKE, (long) count, 0L, 0L, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }

    /** {@code SYS_futex} of this machine, or -1 when it is not one whose number is known. */
    private static long futexSyscallNumber() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return -1;
        }
        return switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
    }

    /**
     * {@code long syscall(long number, ...)} with six word arguments. A wake never blocks, so it may skip the thread
     * state transition ({@link Linker.Option#critical}); a wait blocks, so it must not (it would hold up safepoints).
     */
    private static MethodHandle downcall(boolean critical) {
        if (SYSCALL_NUMBER < 0) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            FunctionDescriptor descriptor = FunctionDescriptor.of(
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG);
            Linker.Option variadic = Linker.Option.firstVariadicArg(1);
            return linker.defaultLookup()
                    .find("syscall")
                    .map(address -> critical
                            ? linker.downcallHandle(address, descriptor, variadic, Linker.Option.critical(false))
                            : linker.downcallHandle(address, descriptor, variadic))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
