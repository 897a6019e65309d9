package dev.faro.fabric.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.openucx.jucx.ucp.UcpEndpoint;

/**
 * Endpoint flushes through the foreign function API instead of JUCX. JUCX 1.12 keeps a JNI global reference to every
 * request UCX completes at once, forever (fixed in UCX 1.14, openucx/ucx#8829; a newer JUCX does not load on Debian
 * 12's libucx 1.13), and a flush whose puts went through shared memory always completes at once: one leaked
 * {@code UcpRequest} per progress turn with puts filled a 64 MiB heap within a minute of 64-byte WRITEs. Here a flush
 * is {@code ucp_ep_flush_nbx} without a callback: UCX answers "done" ({@link #DONE}), an error, or a request still
 * in progress, which {@link #check} polls and {@link #free} releases.
 *
 * <p>Progress thread only (every UCX call is). Data path: allocation-free.
 */
final class UcpFlush {

    /** {@link #flush} and {@link #check}: completed successfully. */
    static final long DONE = 0;
    /** {@link #check}: still in progress. */
    static final long IN_PROGRESS = UcxAgent.UCS_INPROGRESS;
    /** {@code UCS_ERR_LAST}: a status pointer in [-100, -1] is an error status, not a request. */
    private static final long LAST_ERROR = -100;

    private static final MethodHandle FLUSH;
    private static final MethodHandle CHECK_STATUS;
    private static final MethodHandle FREE;
    /** {@code ucp_request_param_t} with {@code op_attr_mask} 0: no callback, no flags (larger than the struct). */
    private static final MemorySegment NO_PARAMETERS;
    /** Whether libucp's symbols were found; if not, the caller flushes through JUCX. */
    static final boolean AVAILABLE;

    static {
        MethodHandle flush = null;
        MethodHandle checkStatus = null;
        MethodHandle free = null;
        MemorySegment parameters = null;
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
            flush = linker.downcallHandle(ucp.find("ucp_ep_flush_nbx").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            checkStatus = linker.downcallHandle(ucp.find("ucp_request_check_status").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            free = linker.downcallHandle(ucp.find("ucp_request_free").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            parameters = Arena.global().allocate(256, 8); // zeroed
        } catch (RuntimeException | LinkageError e) {
            flush = null;
        }
        FLUSH = flush;
        CHECK_STATUS = checkStatus;
        FREE = free;
        NO_PARAMETERS = parameters;
        AVAILABLE = flush != null;
    }

    private UcpFlush() {}

    /**
     * Flushes {@code endpoint}: {@link #DONE}, a negative UCX error status, or the address of a request in progress
     * (positive), for {@link #check} and {@link #free}.
     */
    static long flush(UcpEndpoint endpoint) {
        long status;
        try {
            status = ((MemorySegment) FLUSH.invokeExact(MemorySegment.ofAddress(endpoint.getNativeId()),
                    NO_PARAMETERS)).address();
        } catch (Throwable e) {
            throw new IllegalStateException("ucp_ep_flush_nbx: " + e, e);
        }
        return status;
    }

    /** Whether {@link #flush}'s answer is a request to {@link #check}. */
    static boolean isRequest(long status) {
        return status != DONE && !(status < 0 && status >= LAST_ERROR);
    }

    /** A request's status: {@link #IN_PROGRESS}, {@link #DONE}, or a negative error status. */
    static long check(long request) {
        try {
            return (int) CHECK_STATUS.invokeExact(MemorySegment.ofAddress(request));
        } catch (Throwable e) {
            throw new IllegalStateException("ucp_request_check_status: " + e, e);
        }
    }

    /** Releases a request (one still in progress is released by UCX when it completes). */
    static void free(long request) {
        try {
            FREE.invokeExact(MemorySegment.ofAddress(request));
        } catch (Throwable e) {
            throw new IllegalStateException("ucp_request_free: " + e, e);
        }
    }
}
