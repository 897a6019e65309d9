package dev.faro.cli;

import dev.faro.bench.experiment.ExperimentDriver;
import dev.faro.bench.experiment.ScaleOutExperiment;
import picocli.CommandLine.Command;

/** The {@code faro bench shuffle eN} commands, one per TODS19 experiment, over {@link BenchExperimentCommand}. */
final class BenchShuffleExperimentCommands {

    private BenchShuffleExperimentCommands() {}

    @Command(name = "e4", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"E4 (TODS19 Fig. 19): repartition and broadcast throughput per node against node count for"
                    + " the eight designs, MPI and TCP in one invocation, with each design's ratio to MPI and TCP.",
                "Writes e4.csv, e4.json and e4-repartition.png, e4-broadcast.png under --out."})
    static final class E4 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new ScaleOutExperiment();
        }
    }
}
