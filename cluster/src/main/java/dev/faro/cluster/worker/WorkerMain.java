package dev.faro.cluster.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.protocol.AuthenticationException;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Frame;
import dev.faro.cluster.protocol.FrameChannel;
import dev.faro.cluster.protocol.Handshake;
import dev.faro.cluster.protocol.MessageType;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.net.NetFabricProvider;
import dev.faro.fabric.shm.ShmFabricProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A worker process: {@code java -cp ... dev.faro.cluster.worker.WorkerMain --join HOST:PORT [--secret-file F]
 * [--node N] [--verbose]}. The secret comes from the file or from {@code FARO_CLUSTER_SECRET}, never from the
 * command line. Without {@code --verbose} only warnings and errors of {@code java.util.logging} are shown. The worker
 * joins, opens one {@link Fabric} with the configuration the coordinator sends, serves tasks, and exits when the
 * coordinator says so or its connection drops. Exit codes: 0 after SHUTDOWN, 1 for a bad command line, 2 when
 * refused or the fabric does not open, 3 when the coordinator was lost (or nothing listened at its address for
 * 60 s: a worker may start before its coordinator); SIGTERM or SIGINT close the fabric (its
 * files go) and exit with 143 or 130.
 *
 * <p>Per-host addresses: the coordinator hands every worker the same provider options, but a worker's fabric address
 * differs per host. A provider option {@value #AUTO_ADDRESS} for an address option ({@code net.bind},
 * {@code net.advertise}) becomes the local address of this worker's connection to the coordinator: the interface the
 * host reaches the cluster through (loopback when the coordinator is on loopback), so one configuration serves every
 * host.
 *
 * <p>{@link #serve} serves a worker inside the calling JVM (tests, an embedded node).
 */
public final class WorkerMain {

    static final int EXIT_SHUTDOWN = 0;
    static final int EXIT_USAGE = 1;
    static final int EXIT_NOT_JOINED = 2;
    static final int EXIT_LOST = 3;

    /** The provider option value that stands for the address this worker reaches the coordinator from. */
    public static final String AUTO_ADDRESS = "auto";
    /** The provider options that take an IP address and so accept {@value #AUTO_ADDRESS}. */
    private static final Set<String> ADDRESS_OPTIONS =
            Set.of(NetFabricProvider.BIND_OPTION, NetFabricProvider.ADVERTISE_OPTION);

    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long a worker keeps knocking when the coordinator closes its connection during the handshake (its cap of
     * unauthenticated connections is full, or this JVM was slower than its handshake deadline): longer than that
     * deadline, after which strangers' connections are closed and places come free.
     */
    private static final Duration GREETING_RETRY_WINDOW = Duration.ofSeconds(30);
    /**
     * How long a worker keeps trying while nothing listens at the coordinator's address yet: launchers (srun, mpirun,
     * a batch script) often start the workers and the coordinator together, in no particular order.
     */
    private static final Duration LISTEN_RETRY_WINDOW = Duration.ofSeconds(60);
    /** How long exiting may take before the process halts (a task thread stuck in the fabric, say). */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private WorkerMain() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("faro worker: " + e.getMessage());
            System.err.println("usage: WorkerMain --join HOST:PORT [--secret-file FILE] [--node N] [--verbose]"
                    + " (or the secret in $" + ClusterSecret.ENVIRONMENT_VARIABLE + ")");
            code = EXIT_USAGE;
        }
        Thread halter = Thread.ofPlatform().daemon().unstarted(() -> {
            try {
                Thread.sleep(EXIT_GRACE);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
            Runtime.getRuntime().halt(EXIT_LOST);
        });
        halter.start();
        System.exit(code);
    }

    /** Parses the command line, joins and serves; returns the exit code. */
    public static int run(String[] args) {
        String join = null;
        Path secretFile = null;
        int requestedNode = -1;
        boolean verbose = false;
        for (Iterator<String> it = java.util.List.of(args).iterator(); it.hasNext(); ) {
            String arg = it.next();
            switch (arg) {
                case "--join" -> join = value(arg, it);
                case "--secret-file" -> secretFile = Path.of(value(arg, it));
                case "--node" -> requestedNode = number("--node", value(arg, it));
                case "--verbose" -> verbose = true;
                case "--secret" ->
                    throw new IllegalArgumentException("the secret never goes on the command line:"
                            + " use --secret-file or $" + ClusterSecret.ENVIRONMENT_VARIABLE);
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        if (join == null) {
            throw new IllegalArgumentException("--join HOST:PORT is required");
        }
        int colon = join.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--join wants HOST:PORT, got '" + join + "'");
        }
        ClusterSecret secret;
        try {
            secret = secretFile != null ? ClusterSecret.readFile(secretFile) : ClusterSecret.fromEnvironment();
        } catch (IOException e) {
            System.err.println("faro worker: cannot read the secret file " + secretFile + ": " + e);
            return EXIT_USAGE;
        }
        if (secret == null) {
            throw new IllegalArgumentException(
                    "no secret: give --secret-file or set $" + ClusterSecret.ENVIRONMENT_VARIABLE);
        }
        if (!verbose) {
            quietLogging();
        }
        String host = join.substring(0, colon);
        int port = number("the port of --join " + join, join.substring(colon + 1));
        return serve(new InetSocketAddress(host, port), secret, requestedNode, TaskHandlers.load());
    }

    /**
     * Joins the coordinator at {@code coordinator} and serves it until shutdown or loss; returns the exit code.
     *
     * @param requestedNode the node index to ask for (a launcher's choice), or -1 for any free one
     */
    public static int serve(
            InetSocketAddress coordinator, ClusterSecret secret, int requestedNode, TaskHandlers handlers) {
        Handshake.warmUp();
        long greetingDeadline = System.nanoTime() + GREETING_RETRY_WINDOW.toNanos();
        long listenDeadline = System.nanoTime() + LISTEN_RETRY_WINDOW.toNanos();
        boolean toldNotListening = false;
        long backoffMillis = 50;
        while (true) {
            Socket socket = new Socket();
            try (FrameChannel channel = connect(socket, coordinator)) {
                Frame welcome;
                try {
                    channel.receiveTimeout(HANDSHAKE_TIMEOUT);
                    welcome = Handshake.join(
                            channel, secret, ProcessHandle.current().pid(), hostName(), requestedNode);
                } catch (AuthenticationException e) {
                    System.err.println("faro worker: " + e.getMessage());
                    return EXIT_NOT_JOINED;
                } catch (Handshake.TurnedAwayException e) {
                    if (System.nanoTime() - greetingDeadline >= 0) {
                        throw e;
                    }
                    Thread.sleep(backoffMillis);
                    backoffMillis = Math.min(1000, backoffMillis * 2);
                    continue; // turned away (the coordinator's cap or deadline for strangers): knock again
                }
                channel.authenticated();
                int node = (int) welcome.number("node");
                int nodes = (int) welcome.number("nodes");
                Fabric fabric;
                FabricConfig fabricConfig = withNetSecret(
                        fabricConfig(welcome, node, socket.getLocalAddress()),
                        secret,
                        System.getenv(NetFabricProvider.SECRET_ENVIRONMENT));
                try {
                    fabric = Fabrics.open(fabricConfig);
                } catch (RuntimeException e) {
                    System.err.println("faro worker: node " + node + ": cannot open the fabric: " + e.getMessage());
                    channel.send(Frame.of(MessageType.JOIN_FAILED).put("message", "cannot open the fabric: " + e));
                    return EXIT_NOT_JOINED;
                }
                // SIGTERM or SIGINT (Ctrl-C, a coordinator stopping its workers): close the fabric, which removes
                // its files, before the JVM exits; tasks still running end with it
                Thread onSignal = new Thread(() -> closeQuietly(fabric), "faro-worker-stop");
                Runtime.getRuntime().addShutdownHook(onSignal);
                try (fabric) {
                    channel.receiveTimeout(Duration.ofMillis(welcome.number("silenceTimeoutMs")));
                    channel.send(Frame.of(MessageType.READY));
                    System.out.println("faro worker: joined " + address(coordinator) + " as node " + node + " of "
                            + nodes + " (pid " + ProcessHandle.current().pid() + ", fabric "
                            + fabric.getClass().getSimpleName() + ")");
                    WorkerSession session = new WorkerSession(
                            channel,
                            node,
                            nodes,
                            fabric,
                            secret.sharedSecret(),
                            Duration.ofMillis(welcome.number("exchangeTimeoutMs")),
                            Duration.ofMillis(welcome.number("stallTimeoutMs")),
                            handlers,
                            fabricConfig.option(ShmFabricProvider.DIRECTORY_OPTION, "/dev/shm"));
                    return session.run() ? EXIT_SHUTDOWN : EXIT_LOST;
                } finally {
                    try {
                        Runtime.getRuntime().removeShutdownHook(onSignal);
                    } catch (IllegalStateException shuttingDown) {
                        // the hook is running
                    }
                }
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() - listenDeadline >= 0) {
                    System.err.println("faro worker: cannot join " + address(coordinator) + ": nothing listens there"
                            + " (" + e.getMessage() + ") after " + LISTEN_RETRY_WINDOW.toSeconds() + " s of trying");
                    return EXIT_LOST;
                }
                if (!toldNotListening) {
                    System.err.println("faro worker: nothing listens at " + address(coordinator) + " yet; trying"
                            + " again for up to " + LISTEN_RETRY_WINDOW.toSeconds() + " s");
                    toldNotListening = true;
                }
                if (!pause(500)) {
                    System.err.println("faro worker: interrupted while joining " + address(coordinator));
                    return EXIT_LOST;
                }
            } catch (IOException | RuntimeException e) {
                System.err.println("faro worker: cannot join " + coordinator + ": " + e);
                return EXIT_LOST;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                System.err.println("faro worker: interrupted while joining " + coordinator);
                return EXIT_LOST;
            }
        }
    }

    /** Sleeps {@code millis}; false when interrupted (the flag is set again). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String address(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }

    private static void closeQuietly(Fabric fabric) {
        try {
            fabric.close();
        } catch (RuntimeException e) {
            System.err.println("faro worker: cannot close the fabric while stopping: " + e.getMessage());
        }
    }

    /**
     * Only warnings and errors from java.util.logging (the fabric's INFO lines stay out of the coordinator's log and
     * the user's terminal); the {@code faro} command calls it too.
     */
    public static void quietLogging() {
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.setLevel(java.util.logging.Level.WARNING);
        for (java.util.logging.Handler handler : root.getHandlers()) {
            handler.setLevel(java.util.logging.Level.WARNING);
        }
    }

    private static FrameChannel connect(Socket socket, InetSocketAddress coordinator) throws IOException {
        try {
            socket.connect(coordinator, (int) CONNECT_TIMEOUT.toMillis());
            return new FrameChannel(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * The fabric configuration the coordinator's welcome describes, with {@value #AUTO_ADDRESS} address options
     * replaced by {@code routeToCoordinator}, the local address of the coordinator connection.
     */
    static FabricConfig fabricConfig(Frame welcome, int node, InetAddress routeToCoordinator) {
        JsonNode fabric = welcome.required("fabric");
        FabricConfig config = FabricConfig.of(fabric.path("provider").asText("shm"), "node-" + node);
        if (fabric.has("peerTimeoutMs")) {
            config = config.withPeerTimeout(
                    Duration.ofMillis(fabric.get("peerTimeoutMs").asLong()));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        fabric.path("options").properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> option = it.next();
            String value = option.getValue().asText();
            if (value.equals(AUTO_ADDRESS) && ADDRESS_OPTIONS.contains(option.getKey())) {
                value = routeToCoordinator.getHostAddress();
            }
            config = config.withOption(option.getKey(), value);
        }
        return config;
    }

    /**
     * {@code config} with a {@code net} fabric secret every worker of this cluster shares: when neither the
     * coordinator's options nor {@code environmentSecret} ({@value NetFabricProvider#SECRET_ENVIRONMENT}) give one,
     * the {@linkplain ClusterSecret#derive derived} one, so workers on different hosts authenticate each other's fabric
     * connections without a second secret to distribute (and it never crosses the wire). Other providers: unchanged.
     */
    static FabricConfig withNetSecret(FabricConfig config, ClusterSecret secret, String environmentSecret) {
        if (!config.provider().equals(NetFabricProvider.NAME)
                || config.options().containsKey(NetFabricProvider.SECRET_OPTION)
                || environmentSecret != null && !environmentSecret.isEmpty()) {
            return config;
        }
        return config.withOption(NetFabricProvider.SECRET_OPTION, secret.derive(NetFabricProvider.SECRET_OPTION));
    }

    private static String value(String flag, Iterator<String> it) {
        if (!it.hasNext()) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return it.next();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }

    /** {@code text} as a non-negative int; the error names {@code what}. */
    private static int number(String what, String text) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(what + " must be a non-negative number, got '" + text + "'");
    }
}
