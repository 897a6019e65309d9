package dev.faro.zerosided.switching;

import java.util.Arrays;

/**
 * The switch's state, as a Tofino keeps it: static tables per endpoint (installed by the control plane) and register
 * arrays per endpoint, per connection and per switch thread (updated per packet). Index = endpoint = the switch's
 * queue pair number for that PU buffer's connection. Written and read by the switch's loop thread only (control
 * commands run on it); {@link SwitchControl}'s {@code unsynchronized} readers read it racily.
 */
final class SwitchRegisters {

    // Static table, per endpoint: written by control commands on this thread.
    final int[] port = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] queuePair = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] remoteKey = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] baseAddress = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] capacity = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] itemBytes = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final boolean[] producer = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    int endpointCount;

    // Registers, per endpoint. Producer: head learned (poll/doorbell), tail the switch's; consumer: the reverse.
    final long[] head = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] tail = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final boolean[] ended = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] nextPsn = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] lastPollNs = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] pollBackoffNs = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] lockOwner = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];

    // The one outstanding operation per connection.
    final int[] operation = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] operationPsn = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] operationPackets = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] operationAddress = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] operationLength = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] operationValue = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] operationThread = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] deadlineNs = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] retries = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];

    // Switch threads, one per consumer endpoint.
    final int[] threadState = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] threadFlow = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[][] producersOf = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS][];
    final int[] roundRobin = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] batchProducer = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] batchItems = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[] psnOffset = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final boolean[] removing = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final long[] itemsDelivered = new long[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];

    /** {@link #threadKind}: a consumer's switch thread over its producers (shuffle, 1:1, load balancing). */
    static final int CONSUMER_THREAD = 0;

    /** {@link #threadKind}: a producer's switch thread replicating to its consumers in one global order. */
    static final int REPLICATION_THREAD = 1;

    final int[] threadKind = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final int[][] consumersOf = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS][];
    final int[] pendingAcknowledgements = new int[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    final boolean[] flowEnded = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];

    SwitchRegisters() {
        Arrays.fill(lockOwner, -1);
    }

    /** Bytes of switch state one producer-consumer pair of a 1:1 flow occupies (digest V12; paper: ~50 B + ~700 B). */
    static int bytesPerPair() {
        // per endpoint: static port, QPN, key, address, capacity, item size, role; registers: head, tail, ended,
        // PSN, poll time and back-off, lock, the operation (kind, PSN, packets, address, length, value, thread,
        // deadline, retries)
        int staticBytes = 4 + 4 + 4 + 8 + 4 + 4 + 1;
        int registerBytes = 8 + 8 + 1 + 4 + 8 + 8 + 4 + 4 + 4 + 4 + 8 + 4 + 8 + 4 + 8 + 4;
        // per consumer's switch thread: state, flow, round robin, batch producer, batch items, PSN offset, removing,
        // items delivered (its producer list is one 4-byte entry per pair)
        int threadBytes = 4 + 4 + 4 + 4 + 8 + 4 + 1 + 8 + 4;
        return 2 * (staticBytes + registerBytes) + threadBytes;
    }
}
