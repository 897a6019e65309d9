/**
 * What every experiment writes: a text table for the terminal ({@link dev.faro.bench.report.ResultTable}), a CSV
 * file ({@link dev.faro.bench.report.CsvWriter}), a PNG plot ({@link dev.faro.bench.report.PlotWriter}, XChart) and
 * a JSON sidecar with the machine and the parameters ({@link dev.faro.bench.report.RunMetadata}). The classes know
 * nothing about any one experiment; drivers turn their results into rows and series. Coordination code.
 */
package dev.faro.bench.report;
