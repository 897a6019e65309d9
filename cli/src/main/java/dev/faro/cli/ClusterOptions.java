package dev.faro.cli;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.worker.WorkerMain;
import dev.faro.fabric.net.NetFabricProvider;
import dev.faro.fabric.shm.ShmFabricProvider;
import dev.faro.fabric.ucx.UcxFabricProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The options that say where a command's workers come from (a picocli mixin of {@code faro tpch}, {@code faro bench
 * tpch}, {@code faro bench shuffle}'s commands, there through {@link ShuffleWorkers}, {@code faro bench fabric},
 * {@code join}, {@code locks} and {@code middleware}):
 * without {@code --listen}, a local cluster this process starts; with {@code --listen ADDR:PORT --workers N}, this
 * process is the coordinator of N workers started elsewhere ({@code faro worker --join ADDR:PORT} by hand, ssh,
 * srun or mpirun) and waits for them until the join timeout. The secret comes from {@code --secret-file} or {@code
 * $FARO_CLUSTER_SECRET}, never from the command line; a listener that other hosts can reach needs one, on loopback one
 * is generated into a file of this user's when none is given. Each check's failure is an {@link
 * IllegalArgumentException} whose message is the one line the user sees. Coordination code.
 */
final class ClusterOptions {

    static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(120);
    private static final List<String> PROVIDERS =
            List.of(ShmFabricProvider.NAME, NetFabricProvider.NAME, UcxFabricProvider.NAME);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)?");

    @Option(
            names = "--listen",
            paramLabel = "ADDR:PORT",
            description = "Be the coordinator of workers started"
                    + " elsewhere (faro worker --join ADDR:PORT on each host): listen at this address (PORT alone: loopback;"
                    + " 0.0.0.0 for every interface) and wait for --workers of them. Without it the workers are JVMs"
                    + " started on this host.")
    private String listen;

    @Option(names = "--workers", paramLabel = "N", description = "With --listen: how many workers to wait for.")
    private Integer workers;

    @Option(
            names = "--provider",
            paramLabel = "P",
            description = "The workers' fabric: shm (one host; the default"
                    + " without --listen), net (TCP/UDP; the default with --listen) or ucx (RDMA NICs through UCX)."
                    + " faro bench fabric takes several, comma-separated (shm,net,ucx), measured one after the other.")
    private String provider;

    @Option(
            names = "--join-timeout",
            paramLabel = "TIME",
            description = "With --listen: how long to wait for the"
                    + " workers to join, e.g. 120s, 5m (default: 120s); also how long a lost worker's place waits for a new"
                    + " one, unless --replace-timeout says otherwise.")
    private String joinTimeout;

    @Option(
            names = "--replace-timeout",
            paramLabel = "TIME",
            description = "With --listen: how long a lost worker's place waits for a new one to join, e.g. 30s"
                    + " (default: the join timeout). The run ends with a line naming the lost worker after it.")
    private String replaceTimeout;

    @Option(
            names = "--secret-file",
            paramLabel = "FILE",
            description = "With --listen: file whose first line is the"
                    + " cluster secret the workers must know (keep it 0600); default: $"
                    + ClusterSecret.ENVIRONMENT_VARIABLE
                    + ", and on loopback one generated into a file of yours.")
    private Path secretFile;

    /** Caught so that its value is never echoed in an error ("Unknown options: '--secret', 'VALUE'"). */
    @Option(names = "--secret", hidden = true, arity = "0..1", paramLabel = "SECRET")
    private String secretOnCommandLine;

    /** Whether the workers join from elsewhere ({@code --listen} given). */
    boolean listening() {
        return listen != null;
    }

    /** The number of workers to wait for ({@code --workers}); only with {@link #listening()}. */
    int workers() {
        if (workers == null) {
            throw new IllegalArgumentException("--listen needs --workers N: how many workers to wait for");
        }
        if (workers < 1) {
            throw new IllegalArgumentException("--workers must be at least 1, got " + workers);
        }
        return workers;
    }

    /**
     * Refuses {@code nodes} (the value of {@code option}) when more than the workers that join: with {@code --listen}
     * every node is a joined worker. Without {@code --listen}, nothing to check.
     */
    void requireJoined(String option, int nodes) {
        if (listening() && nodes > workers()) {
            throw new IllegalArgumentException(option + " " + nodes + " is more than the " + workers
                    + " workers that join (--workers " + workers + "); with --listen every node is a joined worker");
        }
    }

    /** The workers' provider: {@code --provider}, or the default ({@code net} with {@code --listen}, else shm). */
    String provider() {
        return provider(listening() ? NetFabricProvider.NAME : ShmFabricProvider.NAME);
    }

    /**
     * The providers of a command that measures several one after the other ({@code faro bench fabric}): {@code
     * --provider}'s comma list in order without repeats, or the default of {@link #provider()}.
     */
    List<String> providers() {
        if (provider == null) {
            return List.of(provider());
        }
        List<String> names = new ArrayList<>();
        for (String name : provider.split(",", -1)) {
            String checked = checkedProvider(name);
            if (!names.contains(checked)) {
                names.add(checked);
            }
        }
        return List.copyOf(names);
    }

    /** The provider of a local cluster ({@code shm} unless {@code --provider} says otherwise); refuses join options. */
    String localProvider() {
        requireLocal();
        return provider(ShmFabricProvider.NAME);
    }

    /** Refuses the options that go with {@code --listen} only (and a secret on the command line). */
    void requireLocal() {
        refuseSecretOnCommandLine();
        Object[][] joinOptions = {
            {"--workers", workers},
            {"--join-timeout", joinTimeout},
            {"--replace-timeout", replaceTimeout},
            {"--secret-file", secretFile}
        };
        for (Object[] option : joinOptions) {
            if (option[1] != null) {
                throw new IllegalArgumentException(option[0] + " goes with --listen ADDR:PORT (workers started"
                        + " elsewhere); a local cluster's size is --nodes");
            }
        }
    }

    /**
     * The cluster of workers joining at {@code --listen}: checks every option, finds the secret (telling {@code notes}
     * where a generated one went), and returns the start. Nothing is bound yet.
     */
    ClusterStart joining(Consumer<String> notes) {
        return joining(provider(NetFabricProvider.NAME), notes);
    }

    /** As {@link #joining(Consumer)}, with the workers' fabric {@code fabric} (one of {@link #providers()}). */
    ClusterStart joining(String fabric, Consumer<String> notes) {
        refuseSecretOnCommandLine();
        int count = workers();
        if (fabric.equals(ShmFabricProvider.NAME)) {
            throw new IllegalArgumentException(
                    "--provider shm works on one host only; workers joining from other" + " hosts use net or ucx");
        }
        InetAddress address = address();
        int port = port();
        Duration timeout = joinTimeout == null ? DEFAULT_JOIN_TIMEOUT : duration("--join-timeout", joinTimeout);
        Duration replace = replaceTimeout == null ? null : duration("--replace-timeout", replaceTimeout);
        ClusterSecret secret = secret(address, notes);
        ClusterConfig config = ClusterConfig.local(count)
                .withBind(address.getHostAddress(), port)
                .withProvider(fabric)
                .withJoinTimeout(timeout)
                .withReplaceTimeout(replace);
        if (fabric.equals(NetFabricProvider.NAME)) {
            // each worker binds its fabric to the interface it reaches the coordinator through
            config = config.withProviderOption(NetFabricProvider.BIND_OPTION, WorkerMain.AUTO_ADDRESS);
        }
        return ClusterStart.joining(config, secret);
    }

    private void refuseSecretOnCommandLine() {
        if (secretOnCommandLine != null) {
            throw new IllegalArgumentException("the secret never goes on the command line (other users see it in the"
                    + " process list): use --secret-file FILE or $" + ClusterSecret.ENVIRONMENT_VARIABLE);
        }
    }

    private String provider(String defaultName) {
        return provider == null ? defaultName : checkedProvider(provider);
    }

    private static String checkedProvider(String given) {
        String name = given.strip().toLowerCase(Locale.ROOT);
        if (!PROVIDERS.contains(name)) {
            throw new IllegalArgumentException(
                    "--provider must be one of " + String.join(", ", PROVIDERS) + ", not '" + given + "'");
        }
        return name;
    }

    /** The host part of {@code --listen}: loopback when only a port is given; {@code [v6]} brackets allowed. */
    private InetAddress address() {
        int colon = listen.lastIndexOf(':');
        String host = colon < 0 ? "" : listen.substring(0, colon).strip();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty()) {
            return InetAddress.getLoopbackAddress();
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--listen " + listen + ": unknown host '" + host + "'");
        }
    }

    private int port() {
        String text = listen.substring(listen.lastIndexOf(':') + 1).strip();
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException(
                "--listen wants ADDR:PORT with a port from 0 to 65535, got '" + listen + "'");
    }

    /** {@code 120s}, {@code 5m}, {@code 500ms}, {@code 1h}, or a number of seconds; positive. */
    static Duration duration(String option, String text) {
        Matcher matcher = DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
            throw new IllegalArgumentException(
                    option + " takes a positive time like 120s, 5m or 500ms, not '" + text + "'");
        }
        long value = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(value);
            case "m" -> Duration.ofMinutes(value);
            case "h" -> Duration.ofHours(value);
            default -> Duration.ofSeconds(value);
        };
    }

    /**
     * The secret from {@code --secret-file} or the environment. Without one: refused when other hosts can reach
     * {@code address}; on loopback a fresh one, written to a new 0600 file that goes when this JVM exits.
     */
    private ClusterSecret secret(InetAddress address, Consumer<String> notes) {
        if (secretFile != null) {
            try {
                return ClusterSecret.readFile(secretFile);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the secret file " + secretFile + ": "
                        + (e instanceof java.nio.file.NoSuchFileException
                                ? "no such file"
                                : e instanceof java.nio.file.AccessDeniedException
                                        ? "permission denied"
                                        : e.toString()));
            }
        }
        ClusterSecret fromEnvironment = ClusterSecret.fromEnvironment();
        if (fromEnvironment != null) {
            return fromEnvironment;
        }
        if (!address.isLoopbackAddress()) {
            throw new IllegalArgumentException("--listen " + listen + " lets other hosts join, so the workers must"
                    + " prove a secret: give --secret-file FILE or set $" + ClusterSecret.ENVIRONMENT_VARIABLE);
        }
        ClusterSecret generated = ClusterSecret.generate();
        try {
            Path directory = Files.createTempDirectory("faro-cluster-"); // owner only
            directory.toFile().deleteOnExit();
            Path file = directory.resolve("secret");
            generated.writeFile(file);
            file.toFile().deleteOnExit(); // before its directory: the last registered goes first
            notes.accept("no secret given: generated one into " + file + " (yours only, removed when this run ends);"
                    + " start the workers with --secret-file " + file);
            return generated;
        } catch (IOException e) {
            throw new IllegalArgumentException("no secret given and none can be written to a file: " + e
                    + "; give --secret-file FILE or set $" + ClusterSecret.ENVIRONMENT_VARIABLE);
        }
    }
}
