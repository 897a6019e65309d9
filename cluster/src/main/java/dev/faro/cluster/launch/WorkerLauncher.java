package dev.faro.cluster.launch;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.worker.WorkerMain;
import dev.faro.fabric.FaroException;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Starts worker JVMs on this host: this JVM's {@code java}, the given class path (by default this JVM's, so test
 * classes and their handlers come along), native access enabled, the heap and extra options, then
 * {@link WorkerMain} with {@code --join} and {@code --node}. The secret goes through the child's environment
 * ({@value ClusterSecret#ENVIRONMENT_VARIABLE}), never its command line. Coordination code; immutable.
 *
 * @param coordinator where the workers join
 * @param secret the cluster secret
 * @param classPath the workers' class path
 * @param maxHeap {@code -Xmx} value, e.g. {@code 3g}
 * @param jvmOptions further JVM options
 * @param log where worker output goes, with a {@code [node N]} prefix
 * @param forwardStandardOutput whether workers' standard output is forwarded too (standard error always is), and
 *     their stack traces with it (otherwise those go to a log file)
 * @param onWorkerExit runs when a launched worker's process has ended, however it ended (e.g. removing the files a
 *     killed worker left behind); on a thread of the process API
 */
public record WorkerLauncher(
        InetSocketAddress coordinator,
        ClusterSecret secret,
        String classPath,
        String maxHeap,
        List<String> jvmOptions,
        PrintStream log,
        boolean forwardStandardOutput,
        Runnable onWorkerExit) {

    public WorkerLauncher {
        Objects.requireNonNull(coordinator, "coordinator is null");
        Objects.requireNonNull(secret, "secret is null");
        Objects.requireNonNull(classPath, "classPath is null");
        Objects.requireNonNull(maxHeap, "maxHeap is null");
        Objects.requireNonNull(log, "log is null");
        Objects.requireNonNull(onWorkerExit, "onWorkerExit is null");
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** This JVM's class path, from {@code java.class.path}. */
    public static String currentClassPath() {
        return System.getProperty("java.class.path");
    }

    /**
     * Starts the worker for {@code node}.
     *
     * @throws FaroException ({@code IO}) when the process cannot be started, ({@code CLOSED}) when this JVM is
     *     shutting down
     */
    public LaunchedWorker launch(int node) {
        if (ChildProcesses.shuttingDown()) {
            throw new FaroException(
                    FaroException.Category.CLOSED, "not starting the worker for node " + node + ": shutting down");
        }
        List<String> command = command(node);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put(ClusterSecret.ENVIRONMENT_VARIABLE, secret.text());
        try {
            return new LaunchedWorker(node, builder.start(), log, forwardStandardOutput, onWorkerExit);
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "cannot start the worker for node " + node + " (" + command.getFirst() + "): " + e.getMessage(),
                    e);
        }
    }

    /** The child's command line. */
    public List<String> command(int node) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.add("-Xmx" + maxHeap);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(WorkerMain.class.getName());
        command.add("--join");
        command.add(coordinator.getHostString() + ":" + coordinator.getPort());
        command.add("--node");
        command.add(Integer.toString(node));
        if (forwardStandardOutput) {
            command.add("--verbose");
        }
        return command;
    }

    /**
     * The command line of a worker started by hand (in another network namespace, say) that joins the coordinator at
     * {@code join} ({@code host:port}) with the cluster secret read from {@code secretFile}: this JVM's {@code java}
     * and class path, {@code jvmOptions}, and {@code --node node} unless {@code node} is negative. Prefix it with
     * what starts it elsewhere ({@code ip netns exec ...}).
     */
    public static List<String> joinCommand(String join, Path secretFile, List<String> jvmOptions, int node) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(List.of(
                "-cp",
                currentClassPath(),
                WorkerMain.class.getName(),
                "--join",
                join,
                "--secret-file",
                secretFile.toString()));
        if (node >= 0) {
            command.addAll(List.of("--node", Integer.toString(node)));
        }
        return command;
    }

    private static String javaBinary() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElseGet(() ->
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The class path entries, for messages. */
    public List<String> classPathEntries() {
        return List.of(classPath.split(File.pathSeparator));
    }
}
