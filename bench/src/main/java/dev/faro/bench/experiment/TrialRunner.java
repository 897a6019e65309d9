package dev.faro.bench.experiment;

import dev.faro.bench.baseline.MpiBaseline;
import dev.faro.bench.report.Medians;
import dev.faro.bench.shuffle.CaseOutcome;
import dev.faro.bench.shuffle.NodeResult;
import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShuffleRunner;
import dev.faro.bench.shuffle.ShuffleTuples;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.ucx.UcxFabricProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Runs an experiment's trials in one cluster of worker processes (and the MPI program beside it), interleaved: each
 * round runs every trial once, alternating the order, so that noise on a shared machine hits all trials alike. The
 * first warm-up round also calibrates the data volume: it runs every trial twice and scales each trial's scans from
 * its second (warm) run so that it takes about {@link ExperimentSettings#minimumSeconds()} times {@link
 * #CALIBRATION_MARGIN}. Per trial, not per group: throughput is a rate, so trials need not move the same bytes, and a
 * group calibrated on its fastest trial made its slow rows (MPI: 9-28 s a run) blow the run-time budget. A timed run
 * that still ends sooner than the minimum (the shared machine got faster) grows that trial's volume again and is
 * repeated, so that every measurement counted lasts at least the minimum. A trial that fails is reported and not run
 * again; every run is checked for exactly-once delivery.
 *
 * <p>With workers that joined from elsewhere ({@code --listen}) the MPI trials are skipped (the MPI program runs its
 * ranks on this host), and on {@code ucx} so are the trials of designs that need UD queue pairs; each with a note.
 *
 * <p>Coordination code; leaves no worker running when it returns or throws.
 */
final class TrialRunner {

    /** Calibration aims this much above the minimum, for noise between the calibration run and the timed runs. */
    static final double CALIBRATION_MARGIN = 1.5;

    /** How often one measurement may be repeated at a larger volume because it was shorter than the minimum. */
    static final int MAX_RESCALES = 2;

    /** Calibration times a warm run at least this fraction of the minimum (growing the volume up to {@link #MAX_PROBES} times). */
    static final double PROBE_FRACTION = 0.4;

    static final int MAX_PROBES = 3;

    private final ExperimentSettings settings;
    /** The joining workers, or null for a local cluster. */
    private final ClusterStart joined;

    private final Consumer<String> progress;
    private final List<String> notes;

    /** @param joined workers that join from elsewhere, or null for a local cluster sized to the largest trial */
    TrialRunner(ExperimentSettings settings, ClusterStart joined, Consumer<String> progress, List<String> notes) {
        this.settings = settings;
        this.joined = joined;
        this.progress = progress;
        this.notes = notes;
    }

    /**
     * Why {@code trial} cannot run on these workers ({@code skipped: ...}), or null: the MPI program does not run on
     * joined workers, and {@code ucx} has no UD queue pairs.
     */
    static String skipReason(Trial trial, ClusterStart joined) {
        if (joined == null || trial.local()) {
            return null;
        }
        if (trial.mpi()) {
            return "skipped: the MPI baseline runs its ranks on this host, not on workers that join (--listen)";
        }
        ShuffleCase shuffleCase = trial.shuffleCase();
        if (joined.config().provider().equals(UcxFabricProvider.NAME)
                && !shuffleCase.isTcp()
                && shuffleCase.design().implementation().needsDatagrams()) {
            return "skipped: " + shuffleCase.design().paperName() + " needs UD queue pairs, which the ucx fabric"
                    + " does not have";
        }
        return null;
    }

    /** Runs every trial and returns one result per trial, in the given order. */
    List<TrialResult> run(List<Trial> given) throws InterruptedException {
        List<Trial> trials = List.copyOf(given);
        Map<String, String> failures = new HashMap<>();
        Map<String, Boolean> noted = new HashMap<>();
        for (Trial trial : trials) {
            String reason = skipReason(trial, joined);
            if (reason != null) {
                failures.put(trial.key(), reason);
                if (noted.putIfAbsent(reason, true) == null) {
                    String note = reason.substring("skipped: ".length());
                    notes.add(note);
                    progress.accept("note: " + note);
                }
            }
        }
        Optional<MpiBaseline> mpi = Optional.empty();
        if (trials.stream().anyMatch(trial -> trial.mpi() && !failures.containsKey(trial.key()))) {
            mpi = MpiBaseline.prepare(note -> {
                notes.add(note);
                progress.accept("note: " + note);
            });
            if (mpi.isEmpty()) {
                for (Trial trial : trials) {
                    if (trial.mpi()) {
                        failures.putIfAbsent(trial.key(), "skipped: Open MPI is not installed");
                    }
                }
            }
        }
        int workers = trials.stream()
                .filter(t -> !t.mpi() && !t.local() && !failures.containsKey(t.key()))
                .mapToInt(t -> t.shuffleCase().nodes())
                .max()
                .orElse(0);
        if (joined != null && workers > joined.config().nodes()) {
            throw new IllegalArgumentException("a trial needs " + workers + " nodes and only "
                    + joined.config().nodes() + " workers join: use --nodes up to "
                    + joined.config().nodes());
        }
        Map<String, Trial> current = new LinkedHashMap<>();
        trials.forEach(trial -> current.put(trial.key(), trial));
        Map<String, List<CaseOutcome>> timed = new LinkedHashMap<>();
        ShuffleRunner cluster = workers == 0
                ? null
                : joined != null ? ShuffleRunner.start(joined, progress) : ShuffleRunner.start(workers, progress);
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
                        String label = String.format(
                                Locale.ROOT,
                                "[round %d/%d, %d/%d] %s %s %s %s",
                                round + 1,
                                rounds,
                                i + 1,
                                order.size(),
                                trial.group(),
                                trial.series(),
                                trial.xLabel(),
                                warmup ? "warm-up" : "run");
                        CaseOutcome outcome =
                                measure(cluster, mpi.orElse(null), current, key, round == 0 && warmup, label, failures);
                        trial = current.get(key);
                        if (outcome == null) {
                            break;
                        }
                        double seconds = outcome.responseNanos() / 1e9;
                        progress.accept(String.format(
                                Locale.ROOT,
                                "%s: %6.3f GB/s per node  %.2f s  (%d scans)",
                                label,
                                outcome.receiveBytesPerNodePerSecond() / 1e9,
                                seconds,
                                trial.shuffleCase().scans()));
                        if (!warmup && seconds < settings.minimumSeconds() && attempt < MAX_RESCALES) {
                            // the machine got faster since the calibration: grow this trial's volume, measure again
                            progress.accept(String.format(
                                    Locale.ROOT,
                                    "%s: shorter than %.1f s; rescaling it",
                                    label,
                                    settings.minimumSeconds()));
                            rescale(current, key, seconds);
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
            results.add(
                    failure != null ? TrialResult.without(trial, failure) : aggregate(trial, timed.get(trial.key())));
        }
        return results;
    }

    /**
     * Runs trial {@code key} once; when {@code calibrating}, first a cold run (JIT, page faults) and then warm runs,
     * growing the trial's scans until a warm run lasts {@link #PROBE_FRACTION} of the minimum, so that the
     * calibration extrapolates from a run long enough to time (a 50 ms run misjudged the rate by 2x). Returns the
     * last outcome, or null after recording a failure.
     */
    private CaseOutcome measure(
            ShuffleRunner cluster,
            MpiBaseline mpi,
            Map<String, Trial> current,
            String key,
            boolean calibrating,
            String label,
            Map<String, String> failures)
            throws InterruptedException {
        boolean probing = calibrating && settings.minimumSeconds() > 0;
        int maximumRuns = probing ? 2 + MAX_PROBES : 1;
        CaseOutcome outcome = null;
        for (int repeat = 0; repeat < maximumRuns; repeat++) {
            Trial trial = current.get(key);
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
            if (!probing) {
                break;
            }
            double seconds = outcome.responseNanos() / 1e9;
            double probeSeconds = settings.minimumSeconds() * PROBE_FRACTION;
            if (repeat >= 1 && seconds >= probeSeconds) {
                break;
            }
            if (repeat >= 1 && repeat < maximumRuns - 1) {
                // too short to time: grow towards the probe length (at most 16x a step) and run again
                double factor = Math.min(16, probeSeconds * CALIBRATION_MARGIN / Math.max(seconds, 1e-3));
                current.computeIfPresent(
                        key,
                        (k, t) -> t.withScans((int)
                                Math.min(100_000, Math.ceil(t.shuffleCase().scans() * factor))));
            }
        }
        return outcome;
    }

    private CaseOutcome runOnce(ShuffleRunner cluster, MpiBaseline mpi, Trial trial) throws InterruptedException {
        if (trial.local()) {
            return dev.faro.bench.shuffle.LocalCompute.run(trial.shuffleCase());
        }
        if (trial.mpi()) {
            return mpi.run(
                    trial.shuffleCase(),
                    ShuffleTuples.expected(trial.shuffleCase()),
                    ShuffleRunner.defaultDeadline(trial.shuffleCase()));
        }
        return cluster.run(trial.shuffleCase());
    }

    /** Scales every trial's scans so that its warm-up would have taken the minimum (and the margin). */
    private void calibrate(Map<String, Trial> current, Map<String, Double> warmupSeconds) {
        warmupSeconds.forEach((key, seconds) -> rescale(current, key, seconds));
        Map<String, Integer> scansByTrial = new LinkedHashMap<>();
        current.forEach((key, t) -> scansByTrial.put(
                t.group() + " " + t.series() + " " + t.xLabel(), t.shuffleCase().scans()));
        progress.accept("calibrated scans per trial (each >= " + settings.minimumSeconds() + " s): " + scansByTrial);
    }

    /** Grows trial {@code key}'s scans by the factor that makes a run of {@code seconds} last the minimum, and a margin. */
    private void rescale(Map<String, Trial> current, String key, double seconds) {
        if (seconds >= settings.minimumSeconds() || seconds <= 0) {
            return;
        }
        double factor = settings.minimumSeconds() * CALIBRATION_MARGIN / seconds;
        current.computeIfPresent(
                key,
                (k, trial) -> trial.withScans(
                        (int) Math.min(100_000, Math.ceil(trial.shuffleCase().scans() * factor))));
    }

    private static TrialResult aggregate(Trial trial, List<CaseOutcome> outcomes) {
        if (outcomes == null || outcomes.isEmpty()) {
            return TrialResult.without(trial, "no timed run");
        }
        double[] gigabytes = outcomes.stream()
                .mapToDouble(o -> o.receiveBytesPerNodePerSecond() / 1e9)
                .toArray();
        double[] seconds =
                outcomes.stream().mapToDouble(o -> o.responseNanos() / 1e9).toArray();
        double[] setup = outcomes.stream().mapToDouble(TrialRunner::setupMillis).toArray();
        return new TrialResult(
                trial,
                outcomes.size(),
                Medians.of(gigabytes),
                java.util.Arrays.stream(gigabytes).min().orElseThrow(),
                java.util.Arrays.stream(gigabytes).max().orElseThrow(),
                Medians.of(seconds),
                trial.mpi() || trial.local() ? Double.NaN : Medians.of(setup),
                outcomes.get(0).bytesPerNode(),
                "",
                Medians.of(outcomes.stream()
                        .mapToDouble(CaseOutcome::creditWritesPerMebibyte)
                        .toArray()),
                Medians.of(outcomes.stream()
                        .mapToDouble(CaseOutcome::sendBlockedFraction)
                        .toArray()),
                Medians.of(outcomes.stream()
                        .mapToDouble(CaseOutcome::receiveBlockedFraction)
                        .toArray()),
                trial.mpi() || trial.local()
                        ? Double.NaN
                        : Medians.of(outcomes.stream()
                                .mapToDouble(TrialRunner::ownOpenMillis)
                                .toArray()));
    }

    /** The slowest node's open plus close time. */
    private static double setupMillis(CaseOutcome outcome) {
        return slowestMillis(outcome, NodeResult::setupNanos);
    }

    /** The slowest node's open without the address exchange (its own work). */
    private static double ownOpenMillis(CaseOutcome outcome) {
        return slowestMillis(outcome, NodeResult::ownOpenNanos);
    }

    private static double slowestMillis(CaseOutcome outcome, ToLongFunction<NodeResult> nanos) {
        long slowest = 0;
        for (int node = 0; node < outcome.nodes().size(); node++) {
            slowest = Math.max(slowest, nanos.applyAsLong(outcome.result(node)));
        }
        return slowest / 1e6;
    }
}
