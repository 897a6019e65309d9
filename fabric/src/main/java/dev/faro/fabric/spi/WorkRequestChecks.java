package dev.faro.fabric.spi;

import dev.faro.fabric.Access;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;

/**
 * The local checks every provider makes before it accepts a request, so that each one refuses the same bad input
 * with the same message ({@code INVALID_ARGUMENT}, nothing posted). What only a provider can tell — whether a region
 * belongs to its node, what the service type allows — stays with the provider.
 *
 * <p>For providers. Data path: allocation-free while the checks pass.
 */
public final class WorkRequestChecks {

    private WorkRequestChecks() {}

    /**
     * Checks the opcode, the length, inline use and the atomics' operands of a send-queue request.
     *
     * @param maxInlineBytes the queue pair's inline limit
     * @param maxMessageBytes the provider's largest message
     */
    public static void checkSendRequest(WorkRequest request, int maxInlineBytes, long maxMessageBytes) {
        Opcode opcode = request.opcode();
        FaroException.checkArgument(
                opcode != null && opcode.ordinal() <= Opcode.COMPARE_SWAP.ordinal(),
                "opcode %s cannot be posted on a send queue",
                opcode);
        int length = request.length();
        FaroException.checkArgument(length >= 0, "length must not be negative: %d", length);
        FaroException.checkArgument(
                length <= maxMessageBytes,
                "length %d exceeds the largest message of %d bytes",
                length,
                maxMessageBytes);
        if (request.isInline()) {
            FaroException.checkArgument(
                    opcode == Opcode.SEND || opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE,
                    "inline data is only for SEND and WRITE, not %s",
                    opcode);
            FaroException.checkArgument(
                    length <= maxInlineBytes,
                    "inline payload of %d bytes exceeds the queue pair's limit of %d",
                    length,
                    maxInlineBytes);
        }
        if (opcode.isAtomic()) {
            FaroException.checkArgument(length == 8, "atomics work on 8 bytes, not %d", length);
            FaroException.checkArgument(
                    (request.remoteOffset() & 7) == 0,
                    "atomic remote offset must be 8-byte aligned: %d",
                    request.remoteOffset());
        }
    }

    /** Whether the request moves bytes from or into a registered local region (check it with {@link #checkLocalSegment}). */
    public static boolean usesLocalRegion(WorkRequest request) {
        Opcode opcode = request.opcode();
        return !request.isInline() && (request.length() > 0 || opcode == Opcode.READ || opcode.isAtomic());
    }

    /** Whether the request lands data in its local region (READ, atomics), which needs {@link Access#LOCAL_WRITE}. */
    public static boolean writesLocally(WorkRequest request) {
        return request.opcode() == Opcode.READ || request.opcode().isAtomic();
    }

    /**
     * Checks a local segment argument: a region given, still registered, the segment within its bounds, and
     * {@link Access#LOCAL_WRITE} when {@code write}. The caller has checked that the region is its own.
     */
    public static void checkLocalSegment(MemoryRegion region, long offset, long length, boolean write) {
        FaroException.checkArgument(region.isRegistered(), "region %s is closed (deregistered)", region);
        FaroException.checkArgument(
                offset >= 0 && length >= 0 && offset <= region.lengthBytes() - length,
                "local segment [offset %d, length %d] is outside the region of %d bytes",
                offset,
                length,
                region.lengthBytes());
        if (write) {
            FaroException.checkArgument(
                    region.access().contains(Access.LOCAL_WRITE),
                    "region %s lacks LOCAL_WRITE, needed to land data in it",
                    region);
        }
    }
}
