package dev.faro.bench.shuffle;

import dev.faro.bench.process.WorkerChannel;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The child JVM of the multi-process shuffle harness: one {@code shm} fabric node that stays open across cases and
 * runs one {@link ShuffleCase} at a time on the coordinator's command ({@link ShuffleCluster}). Commands and replies
 * follow the {@link WorkerChannel} line protocol; the verbs are described in this package's documentation.
 *
 * <p>Coordination code. Commands run on the main thread one at a time; the case itself runs on its own threads
 * ({@link NodeShuffle}), so that the main thread can relay exchanges and report events while the data moves.
 */
public final class ShuffleWorker implements AutoCloseable {

    static final String OPEN = "OPEN";
    static final String IDLE = "IDLE";
    static final String CASE = "CASE";
    static final String NEXT = "NEXT";
    static final String GATHERED = "GATHERED";
    static final String ABANDON = "ABANDON";

    /** Replies of NEXT. */
    static final String RUNNING = "RUNNING";
    static final String GATHER = "GATHER";
    static final String STARTED = "STARTED";
    static final String DONE = "DONE";
    static final String FAILED = "FAILED";

    /** How long one exchange of a case may wait for the coordinator's answer. */
    static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(30);

    /** How long closing the worker waits for a running case before it closes the fabric under it. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private final String name;
    private Fabric fabric;
    private SharedSecret secret;
    private Path nodeDirectory;
    private NodeShuffle current;

    ShuffleWorker(String name) {
        this.name = name;
    }

    /** Runs a worker: {@code ShuffleWorker <name>}; serves commands until EXIT or the end of standard input. */
    public static void main(String[] args) {
        String name = args.length > 0 ? args[0] : "shuffle-worker";
        try (ShuffleWorker worker = new ShuffleWorker(name)) {
            WorkerChannel.serve(worker::onCommand);
        }
        System.exit(0);
    }

    String onCommand(String verb, List<String> arguments) throws Exception {
        return switch (verb) {
            case OPEN -> open(arguments);
            case IDLE -> idle(arguments);
            case CASE -> startCase(arguments);
            case NEXT -> next(arguments);
            case GATHERED -> gathered(arguments);
            case ABANDON -> abandon(arguments);
            default -> throw new IllegalArgumentException("unknown command " + verb);
        };
    }

    /**
     * {@code OPEN shmDirectory secret}: opens the fabric node and keeps the cluster's secret (for the TCP baseline's
     * handshakes). Replies {@code <node id, 16 hex> <pid>}.
     */
    private String open(List<String> arguments) {
        requireArguments(arguments, 2, OPEN);
        requireState(fabric == null, "already open");
        Path directory = Path.of(arguments.get(0));
        secret = SharedSecret.of(arguments.get(1), "the shuffle harness's secret");
        fabric = Fabrics.open(FabricConfig.of("shm", name).withOption("shm.directory", directory.toString()));
        String nodeHex = String.format("%016x", fabric.node());
        nodeDirectory = directory.resolve("faro-" + nodeHex);
        return nodeHex + " " + ProcessHandle.current().pid();
    }

    /**
     * {@code IDLE waitMillis}: waits until the previous case has ended (its endpoints closed). Fails if it has not
     * within the wait, or if its threads never stopped (then the coordinator replaces this worker).
     */
    private String idle(List<String> arguments) throws InterruptedException {
        requireArguments(arguments, 1, IDLE);
        if (current != null) {
            if (!current.awaitEnd(Duration.ofMillis(Long.parseLong(arguments.get(0))))) {
                throw new IllegalStateException("worker " + name + ": the previous case is still running");
            }
            if (current.stuck()) {
                throw new IllegalStateException("worker " + name + ": threads of the previous case did not stop");
            }
        }
        return "";
    }

    /** {@code CASE caseId node <ShuffleCase words>}: starts this node's part of the case. */
    private String startCase(List<String> arguments) {
        requireState(fabric != null, "not open");
        requireState(current == null || current.ended(), "the previous case is still running (send IDLE first)");
        if (arguments.size() < 3) {
            throw new IllegalArgumentException("CASE takes a case id, a node and the case");
        }
        int caseId = Integer.parseInt(arguments.get(0));
        int node = Integer.parseInt(arguments.get(1));
        ShuffleCase shuffleCase = ShuffleCase.decode(arguments.subList(2, arguments.size()));
        if (node < 0 || node >= shuffleCase.nodes()) {
            throw new IllegalArgumentException("node " + node + " is not in a case of " + shuffleCase.nodes());
        }
        current = new NodeShuffle(fabric, secret, nodeDirectory, shuffleCase, caseId, node, EXCHANGE_TIMEOUT);
        current.start();
        return "";
    }

    /**
     * {@code NEXT waitMillis}: the case's next event, waiting at most that long: {@code GATHER key hex},
     * {@code STARTED}, {@code DONE <NodeResult words>}, {@code FAILED category message}, or {@code RUNNING} when
     * nothing happened meanwhile.
     */
    private String next(List<String> arguments) throws InterruptedException {
        requireArguments(arguments, 1, NEXT);
        requireState(current != null, "no case");
        String event = current.nextEvent(Duration.ofMillis(Long.parseLong(arguments.get(0))));
        return event == null ? RUNNING : event;
    }

    /** {@code GATHERED key hex0 hex1 ...}: the answer to the case's pending exchange. */
    private String gathered(List<String> arguments) {
        requireState(current != null, "no case");
        if (arguments.isEmpty()) {
            throw new IllegalArgumentException("GATHERED takes a key and one value per node");
        }
        current.exchange().deliver(arguments.get(0), arguments.subList(1, arguments.size()));
        return "";
    }

    /** {@code ABANDON reason...}: the coordinator gave up on the case; its pending and later exchanges fail. */
    private String abandon(List<String> arguments) {
        if (current != null) {
            current.exchange().abandon(String.join(" ", arguments));
        }
        return "";
    }

    private static void requireArguments(List<String> arguments, int expected, String verb) {
        if (arguments.size() != expected) {
            throw new IllegalArgumentException(verb + " takes " + expected + " arguments, not " + arguments.size());
        }
    }

    private void requireState(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("worker " + name + ": " + message);
        }
    }

    /** Gives a running case a moment to end, then closes the fabric node (which removes its files). Never throws. */
    @Override
    public void close() {
        try {
            if (current != null) {
                current.exchange().abandon("the worker is closing");
                current.awaitEnd(CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (fabric != null) {
            try {
                fabric.close();
            } catch (RuntimeException e) {
                e.printStackTrace(System.err);
            }
        }
    }
}
