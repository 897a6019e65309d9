package dev.faro.fabric.ucx;

import dev.faro.fabric.FaroException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;

/**
 * The UCX operations that create requests (active-message sends, gets, endpoint flushes, rendezvous receives), issued
 * through the foreign function API without a callback and polled by the progress thread, instead of through JUCX.
 *
 * <h2>Why not JUCX</h2>
 * JUCX 1.12 keeps a JNI global reference to the Java object of every request UCX completes at once, forever
 * (openucx/ucx#8829, fixed in UCX 1.14; a newer JUCX does not load on Debian 12's libucx 1.13). Over shared memory
 * most small sends and every flush complete at once: 194,000 live {@code UcpRequest}s after 16 s of 64-byte WRITEs,
 * and when the heap was full JUCX's request allocation crashed the JVM (SIGSEGV in {@code jucx_request_allocate}).
 * Here an operation passes a {@code ucp_request_param_t} without callback: UCX answers "done", an error, or a request
 * in progress, which {@link #poll} checks ({@code ucp_request_check_status}) each progress turn and frees
 * ({@code ucp_request_free}) once it finished. No Java object is made per operation.
 *
 * <h2>Peers with UCX failure handling: through JUCX</h2>
 * On an endpoint with UCX's peer failure handling (another host, or no shared memory), UCX may call the endpoint's
 * error handler inside the very send that finds the peer gone, and JUCX's handler looks up its Java class with JNI
 * {@code FindClass}. From inside a foreign function call that lookup uses the boot class loader (the calling frame is
 * a JDK stub), finds nothing, and the JVM crashes (SIGSEGV in {@code jni_GetMethodID}, seen closing a fabric over UCX's
 * TCP transport). So operations toward such peers go through JUCX's own calls, whose JNI frame gives the handler the
 * right class loader, and keep JUCX's leak (one object per operation UCX completes at once); endpoints made without
 * failure handling (same-host peers under {@code ucx.error-mode=auto}, the default on one machine) never call it and
 * take the leak-free path. A completion with one operation at a time ({@link OneAtATime}: a send slot, a control
 * buffer, a fetch) reuses one JUCX callback; others (a peer's flushes) make one per operation. Creating endpoints through the foreign function API with an error handler of ours would
 * lift this.
 *
 * <h2>Completions</h2>
 * Each operation names a {@link Completion} and a {@code long} tag (a send slot's sequence, a flush's epoch) that
 * comes back with the status: {@link #OK} or a negative UCX error. An operation that finished at once is reported
 * before the issuing call returns, as JUCX did; one in progress from a later {@link #poll}.
 *
 * <p>Progress thread only (every UCX call is). Data path: allocation-free on this path (the pending table grows by
 * doubling); through JUCX, JUCX's own request object per operation.
 */
final class UcpRequests {

    /** A finished operation's status: success. */
    static final int OK = 0;

    private static final int IN_PROGRESS = 1;
    /** {@code UCS_ERR_LAST}: a status pointer in [-100, -1] is an error status, not a request. */
    private static final long LAST_ERROR = -100;

    // ucp_request_param_t (ucp.h, 1.13): op_attr_mask @0, memory_type @48, memh @64
    private static final int FIELD_MEMORY_TYPE = 1 << 6;
    private static final int FIELD_MEMH = 1 << 8;
    private static final long OFFSET_MEMORY_TYPE = 48;
    private static final long OFFSET_MEMH = 64;
    private static final int MEMORY_TYPE_HOST = 0;

    /** Who learns that an operation finished. */
    interface Completion {
        /** {@code status}: {@link #OK} or a negative UCX error status; {@code tag} as given when issued. */
        void completed(long tag, int status);

        /** The JUCX callback of an operation issued through JUCX: a new one each time (several may be under way). */
        default UcxCallback viaJucx(long tag) {
            return new ViaJucx(this, tag);
        }
    }

    /** A completion that never has two operations under way: it reuses one JUCX callback. */
    abstract static class OneAtATime implements Completion {
        private final ViaJucx jucx = new ViaJucx(this, 0);

        @Override
        public final UcxCallback viaJucx(long tag) {
            jucx.tag = tag;
            return jucx;
        }
    }

    private final MemorySegment worker;
    private final MethodHandle amSend;
    private final MethodHandle get;
    private final MethodHandle flush;
    private final MethodHandle amReceiveData;
    private final MethodHandle checkStatus;
    private final MethodHandle free;
    /** The parameters of the call being made (progress thread only; larger than the struct, zeroed). */
    private final MemorySegment parameters = Arena.ofAuto().allocate(128, 8);

    // The pending table: requests in progress, their completions and tags.
    private long[] requests = new long[64];
    private Completion[] completions = new Completion[64];
    private long[] tags = new long[64];
    private int pending;

    /**
     * @throws FaroException if libucp lacks one of the functions (the provider checked its version already)
     */
    UcpRequests(UcpWorker jucxWorker) {
        this.worker = MemorySegment.ofAddress(jucxWorker.getNativeId());
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
            ValueLayout pointer = ValueLayout.ADDRESS;
            ValueLayout size = ValueLayout.JAVA_LONG;
            // ucs_status_ptr_t ucp_am_send_nbx(ep, unsigned id, header, header_length, buffer, count, param)
            amSend = linker.downcallHandle(
                    ucp.find("ucp_am_send_nbx").orElseThrow(),
                    FunctionDescriptor.of(
                            pointer, pointer, ValueLayout.JAVA_INT, pointer, size, pointer, size, pointer));
            // ucs_status_ptr_t ucp_get_nbx(ep, buffer, count, uint64_t remote_addr, rkey, param)
            get = linker.downcallHandle(
                    ucp.find("ucp_get_nbx").orElseThrow(),
                    FunctionDescriptor.of(pointer, pointer, pointer, size, size, pointer, pointer));
            flush = linker.downcallHandle(
                    ucp.find("ucp_ep_flush_nbx").orElseThrow(), FunctionDescriptor.of(pointer, pointer, pointer));
            // ucs_status_ptr_t ucp_am_recv_data_nbx(worker, data_desc, buffer, count, param)
            amReceiveData = linker.downcallHandle(
                    ucp.find("ucp_am_recv_data_nbx").orElseThrow(),
                    FunctionDescriptor.of(pointer, pointer, pointer, pointer, size, pointer));
            checkStatus = linker.downcallHandle(
                    ucp.find("ucp_request_check_status").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, pointer));
            free = linker.downcallHandle(
                    ucp.find("ucp_request_free").orElseThrow(), FunctionDescriptor.ofVoid(pointer));
        } catch (RuntimeException e) {
            throw new FaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "libucp.so.0 lacks a function the ucx provider needs: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Sends active message {@code id} with a header and data (both must stay valid until it completes) to
     * {@code peer}. {@code memoryHandle}: the {@code ucp_mem_h} of registered data (0: none or unknown).
     */
    void sendActiveMessage(
            UcxPeer peer,
            int id,
            long header,
            long headerLength,
            long data,
            long dataLength,
            long memoryHandle,
            Completion completion,
            long tag) {
        if (peer.peerErrorHandling) {
            peer.endpoint.sendAmNonBlocking(id, header, headerLength, data, dataLength, 0, completion.viaJucx(tag));
            return;
        }
        MemorySegment parameters = parameters(memoryHandle);
        MemorySegment status;
        try {
            status = (MemorySegment) amSend.invokeExact(
                    MemorySegment.ofAddress(peer.endpointHandle),
                    id,
                    MemorySegment.ofAddress(header),
                    headerLength,
                    MemorySegment.ofAddress(data),
                    dataLength,
                    parameters);
        } catch (Throwable e) {
            throw failed("ucp_am_send_nbx", e);
        }
        track(status.address(), completion, tag);
    }

    /** Reads {@code length} bytes at {@code remote} of {@code peer} (under {@code remoteKey}) into {@code local}. */
    void get(
            UcxPeer peer,
            long local,
            long length,
            long remote,
            UcpRemoteKey remoteKey,
            long remoteKeyHandle,
            long memoryHandle,
            Completion completion,
            long tag) {
        if (peer.peerErrorHandling) {
            peer.endpoint.getNonBlocking(remote, remoteKey, local, length, completion.viaJucx(tag));
            return;
        }
        MemorySegment parameters = parameters(memoryHandle);
        MemorySegment status;
        try {
            status = (MemorySegment) get.invokeExact(
                    MemorySegment.ofAddress(peer.endpointHandle),
                    MemorySegment.ofAddress(local),
                    length,
                    remote,
                    MemorySegment.ofAddress(remoteKeyHandle),
                    parameters);
        } catch (Throwable e) {
            throw failed("ucp_get_nbx", e);
        }
        track(status.address(), completion, tag);
    }

    /** Flushes an endpoint: completes once every operation issued on it before has completed at the target. */
    void flush(UcxPeer peer, Completion completion, long tag) {
        if (peer.peerErrorHandling) {
            peer.endpoint.flushNonBlocking(completion.viaJucx(tag));
            return;
        }
        MemorySegment parameters = parameters(0);
        MemorySegment status;
        try {
            status = (MemorySegment) flush.invokeExact(MemorySegment.ofAddress(peer.endpointHandle), parameters);
        } catch (Throwable e) {
            throw failed("ucp_ep_flush_nbx", e);
        }
        track(status.address(), completion, tag);
    }

    /** Fetches a rendezvous active message's data (from {@code peer}'s message handler) into {@code buffer}. */
    void receiveData(
            UcxPeer peer,
            UcpAmData data,
            long buffer,
            long length,
            long memoryHandle,
            Completion completion,
            long tag) {
        if (peer == null || peer.peerErrorHandling) {
            data.receive(buffer, completion.viaJucx(tag));
            return;
        }
        MemorySegment parameters = parameters(memoryHandle);
        MemorySegment status;
        try {
            status = (MemorySegment) amReceiveData.invokeExact(
                    worker,
                    MemorySegment.ofAddress(data.getDataHandle()),
                    MemorySegment.ofAddress(buffer),
                    length,
                    parameters);
        } catch (Throwable e) {
            throw failed("ucp_am_recv_data_nbx", e);
        }
        track(status.address(), completion, tag);
    }

    /** Reports the operations that finished since the last call. Returns how many. */
    int poll() {
        int done = 0;
        for (int i = 0; i < pending; ) {
            int status = check(requests[i]);
            if (status == IN_PROGRESS) {
                i++;
                continue;
            }
            release(requests[i]);
            Completion completion = completions[i];
            long tag = tags[i];
            pending--;
            requests[i] = requests[pending]; // order does not matter: each completion is counted on its own
            completions[i] = completions[pending];
            tags[i] = tags[pending];
            completions[pending] = null;
            completion.completed(tag, status);
            done++;
        }
        return done;
    }

    /**
     * Gives every request in progress back to UCX without reporting it (closing: UCX frees each when it completes or
     * its endpoint is closed).
     */
    void releaseAll() {
        for (int i = 0; i < pending; i++) {
            release(requests[i]);
            completions[i] = null;
        }
        pending = 0;
    }

    private MemorySegment parameters(long memoryHandle) {
        int mask = FIELD_MEMORY_TYPE;
        parameters.set(ValueLayout.JAVA_INT, OFFSET_MEMORY_TYPE, MEMORY_TYPE_HOST);
        if (memoryHandle != 0) {
            mask |= FIELD_MEMH;
            parameters.set(ValueLayout.JAVA_LONG, OFFSET_MEMH, memoryHandle);
        }
        parameters.set(ValueLayout.JAVA_INT, 0, mask);
        return parameters;
    }

    private void track(long status, Completion completion, long tag) {
        if (status == OK) {
            completion.completed(tag, OK);
        } else if (status < 0 && status >= LAST_ERROR) {
            completion.completed(tag, (int) status);
        } else {
            if (pending == requests.length) {
                requests = Arrays.copyOf(requests, 2 * pending);
                completions = Arrays.copyOf(completions, 2 * pending);
                tags = Arrays.copyOf(tags, 2 * pending);
            }
            requests[pending] = status;
            completions[pending] = completion;
            tags[pending] = tag;
            pending++;
        }
    }

    private int check(long request) {
        try {
            return (int) checkStatus.invokeExact(MemorySegment.ofAddress(request));
        } catch (Throwable e) {
            throw failed("ucp_request_check_status", e);
        }
    }

    private void release(long request) {
        try {
            free.invokeExact(MemorySegment.ofAddress(request));
        } catch (Throwable e) {
            throw failed("ucp_request_free", e);
        }
    }

    /** A JUCX callback that reports to a {@link Completion} (peers with UCX failure handling: see above). */
    private static final class ViaJucx extends UcxCallback {
        private final Completion completion;
        private long tag;

        ViaJucx(Completion completion, long tag) {
            this.completion = completion;
            this.tag = tag;
        }

        @Override
        public void onSuccess(UcpRequest request) {
            completion.completed(tag, OK);
        }

        @Override
        public void onError(int ucsStatus, String message) {
            completion.completed(tag, ucsStatus < 0 ? ucsStatus : -1);
        }
    }

    private static FaroException failed(String function, Throwable e) {
        return new FaroException(FaroException.Category.IO, function + ": " + e, e);
    }
}
