package dev.faro.bench.fabric;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkCompletion;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * One worker of {@code faro bench fabric}: one fabric node, driven by the coordinator's commands, which arrive as
 * cluster tasks ({@link FabricBenchHandler}). The same class plays the initiator (it receives MEASURE) and the target
 * (it receives SERVE and STOP); the commands and their order are described in this package's documentation.
 *
 * <p>Coordination code; the timed loops live in {@link Initiator}, {@link Receiver} and {@link MemcpyBaseline}.
 * Commands run one at a time, each on its task's thread.
 */
public final class FabricBenchWorker implements AutoCloseable {

    static final String OPEN = "OPEN";
    static final String PEER = "PEER";
    static final String PREPARE = "PREPARE";
    static final String CONNECT = "CONNECT";
    static final String SERVE = "SERVE";
    static final String MEASURE = "MEASURE";
    static final String STOP = "STOP";
    static final String FINISH = "FINISH";
    static final String SOCKET_SERVE = "SOCKET_SERVE";
    static final String SOCKET_MEASURE = "SOCKET_MEASURE";
    static final String SOCKET_STOP = "SOCKET_STOP";
    static final String HOST = "HOST";

    /** The {@code net} provider's bind address option ({@code net.bind}). */
    static final String BIND_OPTION = "net.bind";

    /**
     * An {@code OPEN} option value {@code route:IP}: the local address this host reaches {@code IP} (the coordinator)
     * from, so that joined workers on several hosts bind their fabric where the others can reach it.
     */
    static final String ROUTE_PREFIX = "route:";

    /** Stands for an absent value (no UD address) in the protocol. */
    static final String NONE = "-";

    /** How much longer than later ones the first warm-up of an operation (and of memcpy) lasts. */
    private static final int FIRST_WARMUP_FACTOR = 5;

    /** The largest WRITE used to touch the target's region before timing. */
    private static final int TOUCH_CHUNK_BYTES = 1 << 20;

    private static final HexFormat HEX = HexFormat.of();

    private final String name;

    // Opened by OPEN.
    private Fabric fabric;
    private CompletionQueue completionQueue;
    private MemoryRegion data;
    private MemoryRegion credit;
    private int window;
    private int sendQueueDepth;
    private int receiveQueueDepth;

    // Set by PEER.
    private RemoteKey peerData;
    private RemoteKey peerCredit;

    // Initiator only, created by the first MEASURE.
    private Initiator initiator;
    private MemcpyBaseline memcpy;
    private boolean remoteRegionTouched;
    private final Set<FabricOperation> warmedUp = EnumSet.noneOf(FabricOperation.class);
    private boolean memcpyWarmedUp;

    // The current point, from PREPARE to FINISH.
    private FabricOperation operation;
    private int sizeBytes;
    private RcQueuePair rc;
    private UdQueuePair ud;
    private QueuePairAddress udDestination;
    private Receiver receiver;

    // The plain socket stream baseline (target: the sink; initiator: nothing kept between commands).
    private SocketStreamBaseline.Sink socketSink;

    FabricBenchWorker(String name) {
        this.name = name;
    }

    String onCommand(String verb, List<String> arguments) throws Exception {
        return switch (verb) {
            case OPEN ->
                open(
                        arguments.size() == 4 ? arguments.get(0) : argument(arguments, 0, 3, verb),
                        Long.parseLong(arguments.get(1)),
                        Integer.parseInt(arguments.get(2)),
                        arguments.size() == 4 ? arguments.get(3) : "");
            case PEER -> peer(argument(arguments, 0, 2, verb), arguments.get(1));
            case PREPARE ->
                prepare(
                        FabricOperation.fromCliName(argument(arguments, 0, 2, verb)),
                        Integer.parseInt(arguments.get(1)));
            case CONNECT -> connect(argument(arguments, 0, 2, verb), arguments.get(1));
            case SERVE -> serve();
            case MEASURE ->
                measure(
                        Integer.parseInt(argument(arguments, 0, 3, verb)),
                        Long.parseLong(arguments.get(1)),
                        Long.parseLong(arguments.get(2)));
            case STOP -> stop();
            case FINISH -> finish();
            case SOCKET_SERVE -> socketServe(Integer.parseInt(argument(arguments, 0, 1, verb)));
            case SOCKET_MEASURE ->
                socketMeasure(
                        Integer.parseInt(argument(arguments, 0, 5, verb)),
                        Integer.parseInt(arguments.get(1)),
                        Integer.parseInt(arguments.get(2)),
                        Long.parseLong(arguments.get(3)),
                        Long.parseLong(arguments.get(4)));
            case SOCKET_STOP -> socketStop();
            case HOST -> host();
            default -> throw new IllegalArgumentException("unknown command " + verb);
        };
    }

    private static String argument(List<String> arguments, int index, int expected, String verb) {
        if (arguments.size() != expected) {
            throw new IllegalArgumentException(verb + " takes " + expected + " arguments, not " + arguments.size());
        }
        return arguments.get(index);
    }

    /**
     * {@code OPEN provider workingSetBytes window [options]}: opens the node, its completion queue, its data region
     * (filled, so every page exists) and its credit region. {@code options} are fabric options as comma-separated
     * {@code key=value} pairs (e.g. the {@code net} provider's shared secret, which travels in the task's payload over
     * the cluster's authenticated connection rather than on a command line). Replies
     * {@code dataKey creditKey udMtuBytes maxMessageBytes}.
     */
    private String open(String provider, long workingSetBytes, int newWindow, String options) throws IOException {
        requireState(fabric == null, "already open");
        FabricConfig fabricConfig = FabricConfig.of(provider, name);
        for (String option : options.isEmpty() ? new String[0] : options.split(",")) {
            int equals = option.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("fabric option '" + option + "' is not key=value");
            }
            fabricConfig =
                    fabricConfig.withOption(option.substring(0, equals), resolveRoute(option.substring(equals + 1)));
        }
        fabric = Fabrics.open(fabricConfig);
        FabricCapabilities capabilities = fabric.capabilities();
        window = newWindow;
        sendQueueDepth = Math.min(capabilities.maxQueueDepth(), Math.max(newWindow, 16));
        receiveQueueDepth = Math.min(capabilities.maxQueueDepth(), receiveDepth(newWindow));
        // RC and UD queue pair of one point at a time, each with send and receive depths.
        completionQueue = fabric.createCompletionQueue(2 * (sendQueueDepth + receiveQueueDepth));
        data = fabric.register(
                workingSetBytes, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
        data.segment().fill((byte) 0x3c);
        credit = fabric.register(CreditDescriptor.LENGTH, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        return HEX.formatHex(data.remoteKey().toBytes()) + " "
                + HEX.formatHex(credit.remoteKey().toBytes()) + " "
                + (capabilities.supportsUd() ? capabilities.udMtuBytes() : 0) + " " + capabilities.maxMessageBytes();
    }

    /** {@code value}, or for {@code route:IP} the local address this host sends to {@code IP} from. */
    static String resolveRoute(String value) throws IOException {
        if (!value.startsWith(ROUTE_PREFIX)) {
            return value;
        }
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(value.substring(ROUTE_PREFIX.length())), 9); // sends nothing
            return probe.getLocalAddress().getHostAddress();
        }
    }

    /** {@code HOST}: replies {@code hostName pid}, so the coordinator can say where a baseline ran. */
    private static String host() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "unknown-host";
        }
        return name.replace(' ', '_') + " " + ProcessHandle.current().pid();
    }

    /** Receives the target keeps posted: four windows, so credit returns well before the initiator runs dry. */
    static int receiveDepth(int window) {
        return Math.max(16, 4 * window);
    }

    /** {@code PEER dataKey creditKey}: imports the other worker's keys. */
    private String peer(String dataKey, String creditKey) {
        requireState(fabric != null, "not open");
        peerData = fabric.importRemoteKey(HEX.parseHex(dataKey));
        peerCredit = fabric.importRemoteKey(HEX.parseHex(creditKey));
        return "";
    }

    /**
     * {@code PREPARE operation sizeBytes}: creates the point's RC queue pair (and UD queue pair for UD SEND) and zeroes
     * the credit word. Replies {@code rcAddress udAddress|-}.
     */
    private String prepare(FabricOperation newOperation, int newSizeBytes) {
        requireState(peerData != null, "no PEER yet");
        requireState(rc == null, "the previous point was not finished");
        operation = newOperation;
        sizeBytes = newSizeBytes;
        CreditDescriptor.reset(credit.segment());
        QueuePairConfig config = QueuePairConfig.of(completionQueue, sendQueueDepth, receiveQueueDepth);
        rc = fabric.createRcQueuePair(config);
        ud = newOperation.isUd() ? fabric.createUdQueuePair(config) : null;
        return HEX.formatHex(rc.address().toBytes()) + " "
                + (ud == null ? NONE : HEX.formatHex(ud.address().toBytes()));
    }

    /** {@code CONNECT rcAddress udAddress|-}: connects the RC queue pair to the peer's and notes its UD address. */
    private String connect(String rcAddress, String udAddress) {
        requireState(rc != null, "no PREPARE yet");
        rc.connect(fabric.importAddress(HEX.parseHex(rcAddress)));
        udDestination = udAddress.equals(NONE) ? null : fabric.importAddress(HEX.parseHex(udAddress));
        return "";
    }

    /** {@code SERVE} (target, two-sided points): starts the receiver; replies once its first credit is written. */
    private String serve() throws InterruptedException {
        requireState(rc != null && operation.isTwoSided(), "SERVE needs a prepared two-sided point");
        requireState(receiver == null, "already serving");
        receiver = new Receiver(
                completionQueue,
                operation.isUd() ? ud : rc,
                rc,
                data,
                peerCredit,
                sizeBytes,
                receiveQueueDepth,
                Math.max(1, receiveQueueDepth / 4),
                sendQueueDepth,
                SpinThenYield.awaitsCompletions(fabric.provider()));
        receiver.start();
        return "";
    }

    /**
     * {@code MEASURE runs runNanos warmupNanos} (initiator): one untimed warm-up of the operation and of memcpy
     * ({@link #FIRST_WARMUP_FACTOR} times longer the first time each is measured, to compile its path), then
     * {@code runs} runs of each, interleaved and alternating which goes first, so noise hits both alike. Replies
     * {@code receiverNotReadyRetries sample1 sample2 ...} (see {@link RunSample#encode()}).
     */
    private String measure(int runs, long runNanos, long warmupNanos) {
        requireState(rc != null && (udDestination != null) == operation.isUd(), "MEASURE needs a connected point");
        if (initiator == null) {
            initiator = new Initiator(
                    completionQueue,
                    data,
                    credit,
                    peerData,
                    window,
                    SpinThenYield.awaitsCompletions(fabric.provider()));
            memcpy = new MemcpyBaseline(data.lengthBytes(), Initiator.signalInterval(window));
        }
        if (!remoteRegionTouched) {
            initiator.touchRemoteRegion(
                    rc, (int) Math.min(TOUCH_CHUNK_BYTES, fabric.capabilities().maxMessageBytes()));
            remoteRegionTouched = true;
        }
        initiator.prepare(operation, sizeBytes, rc, ud, udDestination);
        long retriesBefore = fabric.counters().receiverNotReadyRetries();
        // The first point of an operation also pays for compiling its code path: warm it up for longer.
        long operationWarmupNanos = warmedUp.add(operation) ? FIRST_WARMUP_FACTOR * warmupNanos : warmupNanos;
        long memcpyWarmupNanos = memcpyWarmedUp ? warmupNanos : FIRST_WARMUP_FACTOR * warmupNanos;
        memcpyWarmedUp = true;
        initiator.measure(operationWarmupNanos);
        memcpy.measure(sizeBytes, memcpyWarmupNanos);
        List<String> samples = new ArrayList<>(runs + 1);
        for (int run = 0; run < runs; run++) {
            Measurement fabricRun;
            Measurement memcpyRun;
            if (run % 2 == 0) {
                memcpyRun = memcpy.measure(sizeBytes, runNanos);
                fabricRun = initiator.measure(runNanos);
            } else {
                fabricRun = initiator.measure(runNanos);
                memcpyRun = memcpy.measure(sizeBytes, runNanos);
            }
            samples.add(new RunSample(fabricRun, memcpyRun).encode());
        }
        long retries = fabric.counters().receiverNotReadyRetries() - retriesBefore;
        return retries + " " + String.join(" ", samples);
    }

    /** {@code STOP} (target): ends the receiver. Replies {@code received creditWrites udDrops}. */
    private String stop() throws InterruptedException {
        requireState(receiver != null, "not serving");
        Receiver.Statistics statistics;
        try {
            statistics = receiver.stop();
        } finally {
            receiver = null;
        }
        long drops = ud == null ? 0 : ud.receivesMissed();
        return statistics.received() + " " + statistics.creditWrites() + " " + drops;
    }

    /** {@code FINISH}: closes the point's queue pairs and discards completions left in the queue. */
    private String finish() throws InterruptedException {
        if (receiver != null) {
            Receiver stale = receiver;
            receiver = null;
            stale.stop();
        }
        if (ud != null) {
            ud.close();
            ud = null;
        }
        if (rc != null) {
            rc.close();
            rc = null;
        }
        udDestination = null;
        WorkCompletion[] leftovers = WorkCompletion.array(64);
        while (completionQueue.poll(leftovers) > 0) {
            // completions of the closed queue pairs (the last credit WRITEs, flushed receives) mean nothing now
        }
        return "";
    }

    /** {@code SOCKET_SERVE sizeBytes} (target): starts the socket baseline's sink; replies its loopback port. */
    private String socketServe(int sizeBytes) throws Exception {
        socketStop();
        socketSink = new SocketStreamBaseline.Sink(sizeBytes, data.segment());
        return Integer.toString(socketSink.port());
    }

    /**
     * {@code SOCKET_MEASURE port sizeBytes runs runNanos warmupNanos} (initiator): connects to the sink, warms up, then
     * streams {@code runs} timed runs. Replies one {@link Measurement} per run.
     */
    private String socketMeasure(int port, int sizeBytes, int runs, long runNanos, long warmupNanos) throws Exception {
        try (SocketStreamBaseline stream = new SocketStreamBaseline(port, sizeBytes, data.segment())) {
            stream.measure(FIRST_WARMUP_FACTOR * warmupNanos);
            List<String> samples = new ArrayList<>(runs);
            for (int run = 0; run < runs; run++) {
                samples.add(stream.measure(runNanos).encode());
            }
            return String.join(" ", samples);
        }
    }

    /** {@code SOCKET_STOP} (target): stops the sink, if any. */
    private String socketStop() throws Exception {
        if (socketSink != null) {
            SocketStreamBaseline.Sink sink = socketSink;
            socketSink = null;
            sink.close();
        }
        return "";
    }

    private void requireState(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("worker " + name + ": " + message);
        }
    }

    /** Closes the point, memcpy's buffers and the node. Never throws. */
    @Override
    public void close() {
        try {
            socketStop();
            if (fabric != null) {
                finish();
            }
        } catch (Exception | AssertionError e) {
            e.printStackTrace(System.err);
        }
        if (memcpy != null) {
            memcpy.close();
        }
        if (fabric != null) {
            fabric.close();
        }
    }
}
