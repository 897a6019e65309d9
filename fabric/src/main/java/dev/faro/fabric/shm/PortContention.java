package dev.faro.fabric.shm;

import java.lang.foreign.MemorySegment;
import java.util.function.LongSupplier;

/**
 * The switch-contention model of the {@code shm} fabric ({@link ShmFabricProvider#PORT_BANDWIDTH_OPTION}), off
 * unless that option is set: every node has one link into a switch and the switch one output port per node, both at
 * {@code bandwidth} bytes per second, and each input port buffers {@code inputBuffer} bytes. Loopback has no switch,
 * so without the model several senders to one node never slow each other, and a scheduler that avoids that (VLDB16
 * §3.2.3) has nothing to fix.
 *
 * <p>A SEND or WRITE of {@code L} bytes (above {@link #MIN_MODELLED_BYTES}: smaller requests fit one packet, which a
 * switch interleaves with the rest, and pass unmodelled) from node {@code s} to node {@code d}:
 * <ol>
 *   <li>enters the switch once {@code s}'s link is free ({@code egress[s] <= now}; until then it is not admitted and
 *       waits), at {@code start = max(egress[s], posted)}: when the link became free or when it was posted,
 *       whichever is later, however late a thread gets to it;
 *   <li>leaves through {@code d}'s output port after what the port holds already: {@code portEnd = max(start,
 *       ingress[d]) + L / bandwidth}, and {@code ingress[d] = portEnd}. Several senders to one node thus share its
 *       port's bandwidth, in arrival order;
 *   <li>keeps {@code s}'s link busy until it has pushed the message in at link speed and until the port has drained
 *       all but {@code inputBuffer} bytes of it: {@code release = max(start + L / bandwidth, portEnd − inputBuffer /
 *       bandwidth)}, and {@code egress[s] = release}. That is head-of-line blocking: while its message waits for a
 *       busy port, the input takes nothing else, whatever its destination;
 *   <li>is carried out at {@code release}: until then it waits in its queue pair's deferred queue, as in a NIC's send
 *       queue, with the requests behind it, and the posting thread goes on; a later post or the node's progress
 *       agent (which looks every 20 µs while anything waits) then moves the data and publishes the completions.
 * </ol>
 * {@code egress} and {@code ingress} are words in each node's file ({@link NodeDescriptor}), read and advanced with
 * CAS by every node's posting threads, in {@link System#nanoTime()} (CLOCK_MONOTONIC on Linux: one clock for every
 * process of the host). A model, not a switch: packets are not interleaved within a message, and a request
 * runs up to the progress agent's 20 µs (more on a loaded host) after its release, which delays its completions but
 * not the model's clock (the next request starts at the release). Requests queued behind a held one are deferred too, so inline ones are copied (an allocation each).
 *
 * <p>Data path: allocation-free. Off (no option): never constructed, and the queue pairs test one null field.
 */
final class PortContention {

    /** Requests of at most this many bytes (one packet: the UD MTU) are not modelled. */
    static final int MIN_MODELLED_BYTES = ShmUdQueuePair.MTU_BYTES;

    /** The default input buffer per switch port: small, as switches' are. */
    static final long DEFAULT_INPUT_BUFFER_BYTES = 64 * 1024;

    private final double nanosPerByte;
    private final long inputBufferNanos;
    private final LongSupplier clock;

    PortContention(long bytesPerSecond, long inputBufferBytes, LongSupplier clock) {
        if (bytesPerSecond <= 0 || inputBufferBytes < 0) {
            throw new IllegalArgumentException("the port bandwidth must be positive and the input buffer not negative: "
                    + bytesPerSecond + ", " + inputBufferBytes);
        }
        this.nanosPerByte = 1e9 / bytesPerSecond;
        this.inputBufferNanos = (long) (inputBufferBytes * nanosPerByte);
        this.clock = clock;
    }

    /** The model given by a fabric's options, or null when {@code shm.port-bandwidth} is not set (the default). */
    static PortContention fromOptions(String bandwidth, String inputBuffer) {
        if (bandwidth == null || bandwidth.isBlank()) {
            return null;
        }
        long bytesPerSecond = parseBytes(ShmFabricProvider.PORT_BANDWIDTH_OPTION, bandwidth);
        long buffer = inputBuffer == null
                ? DEFAULT_INPUT_BUFFER_BYTES
                : parseBytes(ShmFabricProvider.INPUT_BUFFER_OPTION, inputBuffer);
        return bytesPerSecond == 0 ? null : new PortContention(bytesPerSecond, buffer, System::nanoTime);
    }

    /** A byte count with an optional binary suffix: {@code 1g}, {@code 512m}, {@code 64k}, {@code 100000}. */
    static long parseBytes(String option, String value) {
        String text = value.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = 1;
        char last = text.isEmpty() ? ' ' : text.charAt(text.length() - 1);
        switch (last) {
            case 'k' -> unit = 1L << 10;
            case 'm' -> unit = 1L << 20;
            case 'g' -> unit = 1L << 30;
            default -> {}
        }
        if (unit != 1) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            long number = Long.parseLong(text);
            if (number < 0 || number > Long.MAX_VALUE / unit) {
                throw new NumberFormatException();
            }
            return number * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    option + " must be a byte count such as 1g, 512m, 64k or 100000: " + value, e);
        }
    }

    /** Whether a request of {@code length} bytes is modelled. */
    static boolean isModelled(int length) {
        return length > MIN_MODELLED_BYTES;
    }

    /** {@link #admit}'s answer when the sender's link is still busy: try again later. */
    static final long NOT_ADMITTED = Long.MIN_VALUE;

    /**
     * Claims the sender's link if it is free now and reserves the destination's port for {@code length} bytes (steps
     * 1–3 above); returns the time at which the request may be carried out, or {@link #NOT_ADMITTED} while the link
     * is busy with an earlier request (of any queue pair of the sender). A port is thus reserved only by messages that
     * have entered the switch, in the order they entered it.
     *
     * @param sender the sending node's file
     * @param destination the destination node's file
     * @param postedNs when the request was posted: one that waited for the link enters the switch when the link
     *     became free ({@code max(egress[s], postedNs)}), however late a thread gets to it, so a loaded host's thread
     *     scheduling does not slow the modelled link down
     */
    long admit(MemorySegment sender, MemorySegment destination, int length, long postedNs) {
        long transfer = (long) (length * nanosPerByte);
        long now = clock.getAsLong();
        long egress = NodeDescriptor.egressFree(sender);
        if (egress - now > 0) {
            return NOT_ADMITTED;
        }
        // a request that waited for the link enters the switch when the link became free, not when a thread got to it
        long start = Math.min(now, Math.max(egress, postedNs));
        if (!NodeDescriptor.advanceEgress(sender, egress, start + transfer)) {
            return NOT_ADMITTED;
        }
        long portEnd;
        while (true) {
            long ingress = NodeDescriptor.ingressFree(destination);
            portEnd = Math.max(start, ingress) + transfer;
            if (NodeDescriptor.advanceIngress(destination, ingress, portEnd)) {
                break;
            }
        }
        long release = Math.max(start + transfer, portEnd - inputBufferNanos);
        while (true) {
            egress = NodeDescriptor.egressFree(sender);
            if (egress - release >= 0 || NodeDescriptor.advanceEgress(sender, egress, release)) {
                return release;
            }
        }
    }
}
