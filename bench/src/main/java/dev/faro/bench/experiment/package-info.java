/**
 * One driver per TODS19 experiment (section 7.1), all on one skeleton: {@link
 * dev.faro.bench.experiment.ExperimentDriver} (trials, extra columns, plots, findings; CSV + JSON + PNG under
 * {@code results/}) and {@link dev.faro.bench.experiment.TrialRunner} (one cluster of worker processes, interleaved
 * rounds, calibration of the data volume so that each measurement lasts at least the configured time, medians,
 * exactly-once checks, the MPI program beside the workers). Baselines run in the same invocation as the designs they
 * are compared with, and tables report ratios against them, because the machines are shared and noisy. The workers
 * may also be ones that joined from other hosts ({@code --listen}, over {@code net} or {@code ucx}): then the MPI
 * trials are skipped (its ranks run on this host), on {@code ucx} so are the UD designs' trials, each with a note, and
 * an experiment with nothing left to run is refused ({@link
 * dev.faro.bench.experiment.ExperimentDriver#checkRunnable}). Coordination code.
 */
package dev.faro.bench.experiment;
