/**
 * One driver per TODS19 experiment (section 7.1), all on one skeleton: {@link
 * dev.faro.bench.experiment.ExperimentDriver} (trials, extra columns, plots, findings; CSV + JSON + PNG under
 * {@code results/}) and {@link dev.faro.bench.experiment.TrialRunner} (one cluster of worker processes, interleaved
 * rounds, calibration of the data volume so that each measurement lasts at least the configured time, medians,
 * exactly-once checks, the MPI program beside the workers). Baselines run in the same invocation as the designs they
 * are compared with, and tables report ratios against them, because the machines are shared and noisy.
 * Coordination code.
 */
package dev.faro.bench.experiment;
