package dev.faro.bench.experiment;

import dev.faro.bench.baseline.MpiBaseline;
import dev.faro.bench.shuffle.CaseOutcome;
import dev.faro.bench.shuffle.ShuffleCluster;
import dev.faro.bench.shuffle.ShuffleTuples;
import dev.faro.fabric.FaroException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs an experiment's trials in one cluster of worker processes (and the MPI program beside it), interleaved: each
 * round runs every trial once, alternating the order, so that noise on a shared machine hits all trials alike. The
 * first warm-up round also calibrates the data volume: it runs every trial twice and, per group, scales the scans
 * from the second (warm) run so that the group's fastest trial takes at least {@link
 * ExperimentSettings#minimumSeconds()}. A trial that fails is reported and not run again; every run is
 * checked for exactly-once delivery.
 *
 * <p>Coordination code; leaves no worker running when it returns or throws.
 */
final class TrialRunner {

    /** Calibration aims this much above the minimum, for noise between the calibration run and the timed runs. */
    static final double CALIBRATION_MARGIN = 1.3;

    private final ExperimentSettings settings;
    private final Consumer<String> progress;
    private final List<String> notes;

    TrialRunner(ExperimentSettings settings, Consumer<String> progress, List<String> notes) {
        this.settings = settings;
        this.progress = progress;
        this.notes = notes;
    }

    /** Runs every trial and returns one result per trial, in the given order. */
    List<TrialResult> run(List<Trial> given) throws InterruptedException {
        List<Trial> trials = new ArrayList<>(given);
        Map<String, String> failures = new HashMap<>();
        Optional<MpiBaseline> mpi = Optional.empty();
        if (trials.stream().anyMatch(Trial::mpi)) {
            mpi = MpiBaseline.prepare(note -> {
                notes.add(note);
                progress.accept("note: " + note);
            });
            if (mpi.isEmpty()) {
                for (Trial trial : trials) {
                    if (trial.mpi()) {
                        failures.put(trial.key(), "skipped: Open MPI is not installed");
                    }
                }
            }
        }
        int workers = trials.stream().filter(t -> !t.mpi()).mapToInt(t -> t.shuffleCase().nodes()).max().orElse(0);
        Map<String, List<CaseOutcome>> timed = new LinkedHashMap<>();
        ShuffleCluster cluster = workers == 0 ? null : ShuffleCluster.start(workers, progress);
        try {
            int rounds = settings.warmupRuns() + settings.runs();
            for (int round = 0; round < rounds; round++) {
                boolean warmup = round < settings.warmupRuns();
                List<Trial> order = round % 2 == 1 ? new ArrayList<>(trials).reversed() : trials;
                Map<String, Double> warmupSeconds = new HashMap<>();
                int done = 0;
                for (Trial trial : order) {
                    done++;
                    String label = String.format(Locale.ROOT, "[round %d/%d, %d/%d] %s %s %s %s", round + 1, rounds,
                            done, order.size(), trial.group(), trial.series(), trial.xLabel(),
                            warmup ? "warm-up" : "run");
                    if (failures.containsKey(trial.key())) {
                        continue;
                    }
                    // the first warm-up run is cold (JIT, page faults): calibration times a second, warm one
                    int repeats = round == 0 && warmup && settings.minimumSeconds() > 0 ? 2 : 1;
                    CaseOutcome outcome = null;
                    try {
                        for (int repeat = 0; repeat < repeats && (outcome == null || outcome.problems().isEmpty());
                                repeat++) {
                            outcome = runOnce(cluster, mpi.orElse(null), trial);
                        }
                    } catch (java.io.UncheckedIOException e) {
                        failures.put(trial.key(), e.getMessage());
                        progress.accept(label + ": FAILED: " + e.getMessage());
                        continue;
                    }
                    List<String> problems = outcome.problems();
                    if (!problems.isEmpty()) {
                        failures.put(trial.key(), String.join("; ", problems));
                        progress.accept(label + ": FAILED: " + problems.get(0));
                        continue;
                    }
                    if (warmup) {
                        warmupSeconds.put(trial.key(), outcome.responseNanos() / 1e9);
                    } else {
                        timed.computeIfAbsent(trial.key(), k -> new ArrayList<>()).add(outcome);
                    }
                    progress.accept(String.format(Locale.ROOT, "%s: %6.3f GB/s per node  %.2f s  (%d scans)", label,
                            outcome.receiveBytesPerNodePerSecond() / 1e9, outcome.responseNanos() / 1e9,
                            trial.shuffleCase().scans()));
                }
                if (round == 0 && warmup && settings.minimumSeconds() > 0) {
                    trials = calibrate(trials, warmupSeconds);
                }
            }
        } finally {
            if (cluster != null) {
                try {
                    cluster.close();
                } catch (FaroException e) {
                    notes.add(e.getMessage());
                    progress.accept("warning: " + e.getMessage());
                }
            }
        }
        List<TrialResult> results = new ArrayList<>();
        for (Trial trial : trials) {
            String failure = failures.get(trial.key());
            results.add(failure != null ? TrialResult.without(trial, failure)
                    : aggregate(trial, timed.get(trial.key())));
        }
        return results;
    }

    private CaseOutcome runOnce(ShuffleCluster cluster, MpiBaseline mpi, Trial trial) throws InterruptedException {
        if (trial.mpi()) {
            return mpi.run(trial.shuffleCase(), ShuffleTuples.expected(trial.shuffleCase()),
                    ShuffleCluster.defaultDeadline(trial.shuffleCase()));
        }
        return cluster.run(trial.shuffleCase());
    }

    /** Scales every group's scans so that its fastest warm-up would have taken {@code minimumSeconds}. */
    private List<Trial> calibrate(List<Trial> trials, Map<String, Double> warmupSeconds) {
        Map<String, Double> fastest = new HashMap<>();
        for (Trial trial : trials) {
            Double seconds = warmupSeconds.get(trial.key());
            if (seconds != null && seconds > 0) {
                fastest.merge(trial.group(), seconds, Math::min);
            }
        }
        List<Trial> calibrated = new ArrayList<>();
        for (Trial trial : trials) {
            Double seconds = fastest.get(trial.group());
            int scans = trial.shuffleCase().scans();
            if (seconds != null && seconds < settings.minimumSeconds()) {
                double factor = settings.minimumSeconds() * CALIBRATION_MARGIN / seconds;
                scans = (int) Math.min(100_000, Math.ceil(scans * factor));
            }
            calibrated.add(trial.withScans(scans));
        }
        Map<String, Integer> scansByGroup = new LinkedHashMap<>();
        calibrated.forEach(t -> scansByGroup.put(t.group(), t.shuffleCase().scans()));
        progress.accept("calibrated scans per group (fastest trial >= " + settings.minimumSeconds() + " s): "
                + scansByGroup);
        return calibrated;
    }

    private static TrialResult aggregate(Trial trial, List<CaseOutcome> outcomes) {
        if (outcomes == null || outcomes.isEmpty()) {
            return TrialResult.without(trial, "no timed run");
        }
        double[] gigabytes = outcomes.stream().mapToDouble(o -> o.receiveBytesPerNodePerSecond() / 1e9).toArray();
        double[] seconds = outcomes.stream().mapToDouble(o -> o.responseNanos() / 1e9).toArray();
        double[] setup = outcomes.stream().mapToDouble(TrialRunner::setupMillis).toArray();
        return new TrialResult(trial, outcomes.size(), TrialResult.median(gigabytes),
                java.util.Arrays.stream(gigabytes).min().orElseThrow(),
                java.util.Arrays.stream(gigabytes).max().orElseThrow(), TrialResult.median(seconds),
                trial.mpi() ? Double.NaN : TrialResult.median(setup), outcomes.get(0).bytesPerNode(), "");
    }

    /** The slowest node's open plus close time. */
    private static double setupMillis(CaseOutcome outcome) {
        long slowest = 0;
        for (int node = 0; node < outcome.nodes().size(); node++) {
            slowest = Math.max(slowest, outcome.result(node).setupNanos());
        }
        return slowest / 1e6;
    }

}
