package dev.faro.cli;

import picocli.CommandLine.Command;

/** The {@code faro bench} group: one subcommand per experiment. Running it without a subcommand is a usage error. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Run an experiment and its baselines; write CSV and a PNG plot under results/.",
            "Baselines run in the same invocation and results are reported as ratios, because shared machines"
                    + " are noisy."
        },
        subcommands = {
            BenchFabricCommand.class,
            BenchJoinCommand.class,
            BenchShuffleCommand.class,
            BenchTpchCommand.class,
            BenchLocksCommand.class,
            BenchZeroSidedCommand.class,
            BenchHyperCommand.class,
            BenchMiddlewareCommand.class
        })
final class BenchCommand {}
