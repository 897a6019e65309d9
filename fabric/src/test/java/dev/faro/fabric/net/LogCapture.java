package dev.faro.fabric.net;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects what the {@code net} provider logs (System.Logger, backed by java.util.logging in tests) while open, so a
 * test can check that a refusal was logged clearly.
 */
final class LogCapture implements AutoCloseable {

    private final Logger logger = Logger.getLogger("dev.faro.fabric.net");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            Object[] parameters = record.getParameters();
            if (parameters != null) {
                message = java.text.MessageFormat.format(message, parameters);
            }
            lines.add(record.getLevel() + " " + message);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    LogCapture() {
        logger.addHandler(handler);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    /**
     * The lines captured once one matches {@code expected}, or after {@code timeoutMillis} if none does: progress
     * threads log after they publish completions, so a test that saw the completions may not see the line yet.
     */
    List<String> linesOnceAnyMatches(java.util.function.Predicate<String> expected, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (lines.stream().noneMatch(expected) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        return lines();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
