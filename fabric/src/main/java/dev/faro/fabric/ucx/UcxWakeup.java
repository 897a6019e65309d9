package dev.faro.fabric.ucx;

import dev.faro.fabric.FaroException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * UCX's wakeup mechanism for the progress thread: with nothing to do it arms the worker ({@code ucp_worker_arm}) and
 * sleeps in {@code poll(2)} on the worker's event file descriptor, so an incoming message (a SEND, an answer, a
 * CONNECT) wakes it at once, and a posting thread wakes it with {@code ucp_worker_signal}. A timed park cannot: it
 * sleeps its whole time (about 100 &micro;s for a 50 &micro;s park on a busy host) whatever arrives, and every hop of
 * a SEND or an answer paid it.
 *
 * <p>Through the foreign function API on JUCX's worker handle: JUCX 1.12 offers only {@code ucp_worker_wait}, which
 * has no timeout (the progress thread must also wake for heartbeats). The context must request
 * {@code UCP_FEATURE_WAKEUP}.
 *
 * <p>Threads: {@link #arm} and {@link #await} on the progress thread only; {@link #signal} on any thread
 * ({@code ucp_worker_signal} writes an event file descriptor). Data path: allocation-free after construction.
 */
final class UcxWakeup {

    private static final int POLLIN = 1;
    private static final int UCS_ERR_BUSY = UcsConstants.STATUS.UCS_ERR_BUSY;

    private final MemorySegment worker;
    private final MethodHandle arm;
    private final MethodHandle signal;
    private final MethodHandle poll;
    /** {@code struct pollfd { int fd; short events; short revents; }}, progress thread only. */
    private final MemorySegment pollFd;

    /**
     * @throws FaroException if UCX has no event file descriptor for this worker (the caller falls back to parking)
     */
    UcxWakeup(UcpWorker jucxWorker) {
        Linker linker = Linker.nativeLinker();
        SymbolLookup ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
        FunctionDescriptor onWorker = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        this.worker = MemorySegment.ofAddress(jucxWorker.getNativeId());
        this.arm = linker.downcallHandle(ucp.find("ucp_worker_arm").orElseThrow(), onWorker);
        this.signal = linker.downcallHandle(ucp.find("ucp_worker_signal").orElseThrow(), onWorker);
        this.poll = linker.downcallHandle(
                linker.defaultLookup().find("poll").orElseThrow(),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        MethodHandle getEfd = linker.downcallHandle(
                ucp.find("ucp_worker_get_efd").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        this.pollFd = Arena.ofAuto().allocate(8, 4);
        int status;
        try {
            status = (int) getEfd.invokeExact(worker, pollFd);
        } catch (Throwable e) {
            throw new FaroException(FaroException.Category.IO, "ucp_worker_get_efd: " + e, e);
        }
        if (status != UcxAgent.UCS_OK) {
            throw new FaroException(FaroException.Category.NOT_SUPPORTED, "ucp_worker_get_efd: status " + status);
        }
        pollFd.set(ValueLayout.JAVA_SHORT, 4, (short) POLLIN);
    }

    /**
     * Arms the worker after {@code ucp_worker_progress} returned 0: true if it may sleep, false if events arrived
     * meanwhile (progress again). Progress thread.
     */
    boolean arm() {
        try {
            int status = (int) arm.invokeExact(worker);
            if (status != UcxAgent.UCS_OK && status != UCS_ERR_BUSY) {
                throw new FaroException(FaroException.Category.IO, "ucp_worker_arm: status " + status);
            }
            return status == UcxAgent.UCS_OK;
        } catch (FaroException e) {
            throw e;
        } catch (Throwable e) {
            throw new FaroException(FaroException.Category.IO, "ucp_worker_arm: " + e, e);
        }
    }

    /** Sleeps until the armed worker has an event, {@link #signal} is called, or {@code timeoutMillis} pass. */
    void await(int timeoutMillis) {
        pollFd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        try {
            int ignored = (int) poll.invokeExact(pollFd, 1L, timeoutMillis); // EINTR: a spurious wakeup, harmless
        } catch (Throwable e) {
            throw new FaroException(FaroException.Category.IO, "poll: " + e, e);
        }
    }

    /**
     * Wakes the progress thread from {@link #await} (or makes its next one return at once); false if UCX could not
     * (the caller's request is posted already: it must not fail now; the sleep's timeout bounds the delay). Any
     * thread.
     */
    boolean signal() {
        try {
            return (int) signal.invokeExact(worker) == UcxAgent.UCS_OK;
        } catch (Throwable e) {
            return false;
        }
    }
}
