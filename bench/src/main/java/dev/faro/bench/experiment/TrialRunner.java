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
 * ExperimentSettings#minimumSeconds()}. A timed run that still ends sooner (the shared machine got faster) grows its
 * group's volume again and is repeated, so that every measurement counted lasts at least the minimum. A trial that fails is reported and not run again; every run is
 * checked for exactly-once delivery.
 *
 * <p>Coordination code; leaves no worker running when it returns or throws.
 */
final class TrialRunner {

    /** Calibration aims this much above the minimum, for noise between the calibration run and the timed runs. */
    static final double CALIBRATION_MARGIN = 1.3;

    /** How often one measurement may be repeated at a larger volume because it was shorter than the minimum. */
    static final int MAX_RESCALES = 2;

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
        List<Trial> trials = List.copyOf(given);
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
        Map<String, Trial> current = new LinkedHashMap<>();
        trials.forEach(trial -> current.put(trial.key(), trial));
        Map<String, List<CaseOutcome>> timed = new LinkedHashMap<>();
        ShuffleCluster cluster = workers == 0 ? null : ShuffleCluster.start(workers, progress);
        try {
            int rounds = settings.warmupRuns() + settings.runs();
            for (int round = 0; round < rounds; round++) {
                boolean warmup = round < settings.warmupRuns();
                List<String> order = new ArrayList<>(current.keySet());
                if (round % 2 == 1) {
                    order = order.reversed();
                }
                Map<String, Double> warmupSeconds = new HashMap<>();
                for (int i = 0; i < order.size(); i++) {
                    String key = order.get(i);
                    for (int attempt = 0; !failures.containsKey(key); attempt++) {
                        Trial trial = current.get(key);
                        String label = String.format(Locale.ROOT, "[round %d/%d, %d/%d] %s %s %s %s", round + 1,
                                rounds, i + 1, order.size(), trial.group(), trial.series(), trial.xLabel(),
                                warmup ? "warm-up" : "run");
                        CaseOutcome outcome = measure(cluster, mpi.orElse(null), trial, round == 0 && warmup,
                                label, failures);
                        if (outcome == null) {
                            break;
                        }
                        double seconds = outcome.responseNanos() / 1e9;
                        progress.accept(String.format(Locale.ROOT, "%s: %6.3f GB/s per node  %.2f s  (%d scans)",
                                label, outcome.receiveBytesPerNodePerSecond() / 1e9, seconds,
                                trial.shuffleCase().scans()));
                        if (!warmup && seconds < settings.minimumSeconds() && attempt < MAX_RESCALES) {
                            // the machine got faster since the calibration: grow the group's volume, measure again
                            progress.accept(String.format(Locale.ROOT, "%s: shorter than %.1f s; rescaling %s",
                                    label, settings.minimumSeconds(), trial.group()));
                            rescale(current, trial.group(), seconds);
                            continue;
                        }
                        if (warmup) {
                            warmupSeconds.put(key, seconds);
                        } else {
                            timed.computeIfAbsent(key, k -> new ArrayList<>()).add(outcome);
                        }
                        break;
                    }
                }
                if (round == 0 && warmup && settings.minimumSeconds() > 0) {
                    calibrate(current, warmupSeconds);
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
        for (Trial original : trials) {
            Trial trial = current.get(original.key());
            String failure = failures.get(trial.key());
            results.add(failure != null ? TrialResult.without(trial, failure)
                    : aggregate(trial, timed.get(trial.key())));
        }
        return results;
    }

    /**
     * Runs {@code trial} once (twice when {@code calibrating}: the first run is cold, JIT and page faults, and the
     * calibration times the second); returns null after recording a failure.
     */
    private CaseOutcome measure(ShuffleCluster cluster, MpiBaseline mpi, Trial trial, boolean calibrating,
            String label, Map<String, String> failures) throws InterruptedException {
        int repeats = calibrating && settings.minimumSeconds() > 0 ? 2 : 1;
        CaseOutcome outcome = null;
        for (int repeat = 0; repeat < repeats; repeat++) {
            try {
                outcome = runOnce(cluster, mpi, trial);
            } catch (java.io.UncheckedIOException e) {
                failures.put(trial.key(), e.getMessage());
                progress.accept(label + ": FAILED: " + e.getMessage());
                return null;
            }
            List<String> problems = outcome.problems();
            if (!problems.isEmpty()) {
                failures.put(trial.key(), String.join("; ", problems));
                progress.accept(label + ": FAILED: " + problems.get(0));
                return null;
            }
        }
        return outcome;
    }

    private CaseOutcome runOnce(ShuffleCluster cluster, MpiBaseline mpi, Trial trial) throws InterruptedException {
        if (trial.mpi()) {
            return mpi.run(trial.shuffleCase(), ShuffleTuples.expected(trial.shuffleCase()),
                    ShuffleCluster.defaultDeadline(trial.shuffleCase()));
        }
        return cluster.run(trial.shuffleCase());
    }

    /** Scales every group's scans so that its fastest warm-up would have taken {@code minimumSeconds}. */
    private void calibrate(Map<String, Trial> current, Map<String, Double> warmupSeconds) {
        Map<String, Double> fastest = new HashMap<>();
        current.forEach((key, trial) -> {
            Double seconds = warmupSeconds.get(key);
            if (seconds != null && seconds > 0) {
                fastest.merge(trial.group(), seconds, Math::min);
            }
        });
        fastest.forEach((group, seconds) -> rescale(current, group, seconds));
        Map<String, Integer> scansByGroup = new LinkedHashMap<>();
        current.values().forEach(t -> scansByGroup.put(t.group(), t.shuffleCase().scans()));
        progress.accept("calibrated scans per group (fastest trial >= " + settings.minimumSeconds() + " s): "
                + scansByGroup);
    }

    /** Grows {@code group}'s scans by the factor that makes a run of {@code seconds} last the minimum, and a margin. */
    private void rescale(Map<String, Trial> current, String group, double seconds) {
        if (seconds >= settings.minimumSeconds() || seconds <= 0) {
            return;
        }
        double factor = settings.minimumSeconds() * CALIBRATION_MARGIN / seconds;
        current.replaceAll((key, trial) -> trial.group().equals(group)
                ? trial.withScans((int) Math.min(100_000, Math.ceil(trial.shuffleCase().scans() * factor)))
                : trial);
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
