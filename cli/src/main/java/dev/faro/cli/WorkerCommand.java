package dev.faro.cli;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.worker.WorkerMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code faro worker --join HOST:PORT}: wiring only. Runs this process as a cluster worker ({@link WorkerMain}) until
 * its coordinator shuts it down or goes away. The secret comes from {@code --secret-file} or the environment
 * variable {@code FARO_CLUSTER_SECRET}, never from the command line. Exit codes are {@link WorkerMain}'s: 0 after
 * shutdown, 1 for a bad command line, 2 when refused or the fabric does not open, 3 when the coordinator was lost.
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Join a Faro cluster as a worker node and serve it until the coordinator shuts it down or goes away.",
            "Start one per host (ssh, srun, mpirun, a container orchestrator); the coordinator (faro tpch --listen"
                    + " ADDR:PORT --workers N, or faro bench tpch with the same options) assigns node ids in join"
                    + " order."
        })
final class WorkerCommand implements Callable<Integer> {

    @Option(names = "--join", required = true, paramLabel = "HOST:PORT", description = "The coordinator's address.")
    private String join;

    @Option(
            names = "--secret-file",
            paramLabel = "FILE",
            description = "File whose first line is the cluster secret (keep it 0600); default: $FARO_CLUSTER_SECRET.")
    private Path secretFile;

    @Option(
            names = "--node",
            paramLabel = "N",
            description = "Ask for node N (0 .. workers - 1); by default the"
                    + " coordinator hands out the lowest free node, in the order workers join. Launcher ranks"
                    + " ($OMPI_COMM_WORLD_RANK, $SLURM_PROCID) are not used: the coordinator may be a rank itself.")
    private Integer node;

    @Option(names = "--verbose", description = "Show informational log lines too, not only warnings and errors.")
    private boolean verbose;

    /** Caught so that its value is never echoed in an error ("Unknown options: '--secret', 'VALUE'"). */
    @Option(names = "--secret", hidden = true, arity = "0..1", paramLabel = "SECRET")
    private String secretOnCommandLine;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (secretOnCommandLine != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "the secret never goes on the command line (other"
                            + " users see it in the process list): use --secret-file FILE or $"
                            + ClusterSecret.ENVIRONMENT_VARIABLE);
        }
        List<String> arguments = new ArrayList<>(List.of("--join", join));
        if (secretFile != null) {
            arguments.addAll(List.of("--secret-file", secretFile.toString()));
        }
        if (node != null) {
            arguments.addAll(List.of("--node", node.toString()));
        }
        if (verbose) {
            arguments.add("--verbose");
        }
        try {
            return WorkerMain.run(arguments.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("faro worker: " + e.getMessage());
            return 1;
        }
    }
}
