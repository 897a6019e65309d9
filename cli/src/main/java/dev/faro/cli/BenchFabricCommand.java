package dev.faro.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code faro bench fabric}: placeholder until the fabric micro-benchmark lands. */
@Command(
        name = "fabric",
        mixinStandardHelpOptions = true,
        description = "Measure the fabric providers (latency and bandwidth per operation). Not implemented yet.")
final class BenchFabricCommand implements Callable<Integer> {

    /** Exit code while the experiment does not exist yet. */
    static final int NOT_IMPLEMENTED = 2;

    @Override
    public Integer call() {
        System.err.println("faro bench fabric: not implemented yet");
        return NOT_IMPLEMENTED;
    }
}
