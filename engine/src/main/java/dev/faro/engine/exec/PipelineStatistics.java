package dev.faro.engine.exec;

/** One pipeline's run at one node: what it does (source to sink), on how many threads, and its wall time. */
public record PipelineStatistics(int pipeline, String description, int threads, long nanos) {}
