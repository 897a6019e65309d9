package dev.faro.hyper;

/**
 * How a node's multiplexer is built: the message size and pool, the receives it keeps posted per peer, the worker
 * groups (the paper's NUMA regions, modelled as groups of worker threads: one free list and one receive queue each),
 * and how the network thread waits for completions. Immutable; validated.
 *
 * @param messageBytes one message, wire header included: what a decoupled exchange fills per destination server
 *     before handing it to the multiplexer (512 KiB in the paper, which hides the phase synchronisation)
 * @param sendMessages send messages in the node's pool, shared by every exchange of every running query
 * @param receivesPerPeer receive messages kept posted on each peer's queue pair: the credit each peer starts with
 * @param workerGroups groups of worker threads, each with its own free list and receive queue (thread {@code t} is in
 *     group {@code t % workerGroups}); a worker takes from its own group's queue first and steals from the others
 * @param busyPolling true: the network thread spins on the completion queue (lowest latency, a full core); false
 *     (the paper's choice): it parks when idle and is woken by workers handing it messages
 * @param schedule unscheduled all-to-all, or round-robin phases
 * @param phaseQuota with {@link NetworkSchedule#ROUND_ROBIN}: messages a node sends per phase at most (8 in the
 *     paper)
 * @param postedPerPeer data messages posted on one peer's queue pair and not completed yet, at most; 0: no limit
 *     beyond credit (the default). On a link slower than the node (the {@code shm} contention model), what is
 *     posted waits in the queue pair, and the credit this node returns to that peer (a WRITE on the same queue
 *     pair) waits behind all of it; a small limit keeps credit returns prompt
 */
public record HyperConfig(
        int messageBytes,
        int sendMessages,
        int receivesPerPeer,
        int workerGroups,
        boolean busyPolling,
        NetworkSchedule schedule,
        int phaseQuota,
        int postedPerPeer) {

    /** The paper's message size. */
    public static final int DEFAULT_MESSAGE_BYTES = 512 * 1024;

    public HyperConfig {
        if (messageBytes < MessageDescriptor.LENGTH + 64 || messageBytes > 64 * 1024 * 1024) {
            throw new IllegalArgumentException("messageBytes must be in [96, 64 MiB]: messageBytes=" + messageBytes);
        }
        if (sendMessages < 2 || sendMessages > 1 << 16) {
            throw new IllegalArgumentException("sendMessages must be in [2, 65536]: sendMessages=" + sendMessages);
        }
        if (receivesPerPeer < 1 || receivesPerPeer > 1024) {
            throw new IllegalArgumentException(
                    "receivesPerPeer must be in [1, 1024]: receivesPerPeer=" + receivesPerPeer);
        }
        if (workerGroups < 1 || workerGroups > 64) {
            throw new IllegalArgumentException("workerGroups must be in [1, 64]: workerGroups=" + workerGroups);
        }
        java.util.Objects.requireNonNull(schedule, "schedule is null");
        if (phaseQuota < 1) {
            throw new IllegalArgumentException("phaseQuota must be positive: phaseQuota=" + phaseQuota);
        }
        if (postedPerPeer < 0) {
            throw new IllegalArgumentException("postedPerPeer must not be negative: postedPerPeer=" + postedPerPeer);
        }
    }

    /** The paper's quota of messages per phase. */
    public static final int DEFAULT_PHASE_QUOTA = 8;

    /**
     * 512 KiB messages, 64 send messages (32 MiB) and 8 receives per peer (4 MiB per peer), two worker groups, event
     * mode, unscheduled all-to-all (round-robin phases pay a synchronisation per phase and can only pay off where a
     * switch port is contended, which loopback has not).
     */
    public static HyperConfig defaults() {
        return new HyperConfig(
                DEFAULT_MESSAGE_BYTES, 64, 8, 2, false, NetworkSchedule.ALL_TO_ALL, DEFAULT_PHASE_QUOTA, 0);
    }

    public HyperConfig withMessageBytes(int bytes) {
        return new HyperConfig(
                bytes, sendMessages, receivesPerPeer, workerGroups, busyPolling, schedule, phaseQuota, postedPerPeer);
    }

    public HyperConfig withSendMessages(int messages) {
        return new HyperConfig(
                messageBytes,
                messages,
                receivesPerPeer,
                workerGroups,
                busyPolling,
                schedule,
                phaseQuota,
                postedPerPeer);
    }

    public HyperConfig withReceivesPerPeer(int receives) {
        return new HyperConfig(
                messageBytes, sendMessages, receives, workerGroups, busyPolling, schedule, phaseQuota, postedPerPeer);
    }

    public HyperConfig withWorkerGroups(int groups) {
        return new HyperConfig(
                messageBytes, sendMessages, receivesPerPeer, groups, busyPolling, schedule, phaseQuota, postedPerPeer);
    }

    public HyperConfig withBusyPolling(boolean busy) {
        return new HyperConfig(
                messageBytes, sendMessages, receivesPerPeer, workerGroups, busy, schedule, phaseQuota, postedPerPeer);
    }

    public HyperConfig withSchedule(NetworkSchedule newSchedule) {
        return new HyperConfig(
                messageBytes,
                sendMessages,
                receivesPerPeer,
                workerGroups,
                busyPolling,
                newSchedule,
                phaseQuota,
                postedPerPeer);
    }

    public HyperConfig withPostedPerPeer(int posted) {
        return new HyperConfig(
                messageBytes, sendMessages, receivesPerPeer, workerGroups, busyPolling, schedule, phaseQuota, posted);
    }

    public HyperConfig withPhaseQuota(int quota) {
        return new HyperConfig(
                messageBytes, sendMessages, receivesPerPeer, workerGroups, busyPolling, schedule, quota, postedPerPeer);
    }
}
