package dev.faro.cli;

import dev.faro.bench.experiment.BufferPolicyExperiment;
import dev.faro.bench.experiment.CreditFrequencyExperiment;
import dev.faro.bench.experiment.ExperimentDriver;
import dev.faro.bench.experiment.MessageSizeExperiment;
import dev.faro.bench.experiment.QueuePairExperiment;
import dev.faro.bench.experiment.ReceiveComputeExperiment;
import dev.faro.bench.experiment.ScaleOutExperiment;
import dev.faro.bench.experiment.SetupTimeExperiment;
import dev.faro.bench.experiment.WriteCompletionExperiment;
import picocli.CommandLine.Command;

/**
 * The {@code faro bench shuffle eN} commands, one per TODS19 experiment (section 7.1), each over its driver in
 * {@code dev.faro.bench.experiment} with the options of {@link BenchExperimentCommand}. Wiring only.
 */
final class BenchShuffleExperimentCommands {

    private BenchShuffleExperimentCommands() {}

    @Command(
            name = "e1",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E1 (TODS19 Figs. 13-14): Send/Receive designs, throughput vs credit write-back frequency"
                        + " (1-16 receives per credit write) and the registered memory each interval needs.",
                "Writes e1.csv, e1.json and e1.png under --out."
            })
    static final class E1 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new CreditFrequencyExperiment();
        }
    }

    @Command(
            name = "e2",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E2 (TODS19 Fig. 15): MEMQ/WR with poll-buffers, poll-MQ and poll-CQ as the receivers'"
                        + " compute intensity grows.",
                "Writes e2.csv, e2.json and e2.png under --out."
            })
    static final class E2 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new WriteCompletionExperiment();
        }
    }

    @Command(
            name = "e3",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E3 (TODS19 Fig. 18): RC designs, throughput and pinned memory vs message size 4 KiB -"
                        + " 1 MiB with double buffering.",
                "Writes e3.csv, e3.json and e3.png under --out."
            })
    static final class E3 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new MessageSizeExperiment();
        }
    }

    @Command(
            name = "e4",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E4 (TODS19 Fig. 19): repartition and broadcast throughput per node against node count for"
                        + " the eight designs, MPI and TCP in one invocation, with each design's ratio to MPI and TCP.",
                "MPI runs at equal cores: one rank per thread of a node when nodes x threads fit the cores, else one"
                        + " rank per node doing its threads' work; a note names each MPI row's configuration, and the"
                        + " goal line compares against it (use --threads 1 for the headline).",
                "Writes e4.csv, e4.json and e4-repartition.png, e4-broadcast.png under --out."
            })
    static final class E4 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new ScaleOutExperiment();
        }
    }

    @Command(
            name = "e5",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E5 (TODS19 Fig. 20): repartition throughput vs queue pairs per node (1, 2, 4 threads;"
                        + " SE/ME; SQ/MQ).",
                "Writes e5.csv, e5.json and e5.png under --out."
            })
    static final class E5 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new QueuePairExperiment();
        }
    }

    @Command(
            name = "e6",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E6 (TODS19 Fig. 21): setup + teardown time of a shuffle vs node count, eight designs and" + " TCP.",
                "Writes e6.csv, e6.json and e6.png under --out."
            })
    static final class E6 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new SetupTimeExperiment();
        }
    }

    @Command(
            name = "e7",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E7 (TODS19 Fig. 22): throughput vs receive-side compute intensity, eight designs, MPI and" + " TCP.",
                "MPI runs at equal cores, as for e4; a note names each MPI row's configuration.",
                "Writes e7.csv, e7.json and e7.png under --out."
            })
    static final class E7 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new ReceiveComputeExperiment();
        }
    }

    @Command(
            name = "e8",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "E8 (TODS19 Figs. 23-24): MESQ/SR adaptive vs fixed vs bandwidth-delay buffer depth, light,"
                        + " heavy and skewed receivers, 2 nodes.",
                "Writes e8.csv, e8.json and e8.png under --out."
            })
    static final class E8 extends BenchExperimentCommand {
        @Override
        ExperimentDriver driver() {
            return new BufferPolicyExperiment();
        }
    }
}
