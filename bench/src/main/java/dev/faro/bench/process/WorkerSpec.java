package dev.faro.bench.process;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How to start one worker JVM.
 *
 * @param name a short name for messages and log prefixes ({@code initiator}, {@code worker-3})
 * @param mainClass the class whose {@code main} runs in the child; it should serve a {@link WorkerChannel}
 * @param arguments the child's program arguments
 * @param maxHeap the child's {@code -Xmx} value, e.g. {@code 64m}
 * @param jvmOptions further JVM options (native access is always enabled)
 * @param replyTimeout how long {@link WorkerProcess#request(String)} waits for an answer
 */
public record WorkerSpec(
        String name,
        String mainClass,
        List<String> arguments,
        String maxHeap,
        List<String> jvmOptions,
        Duration replyTimeout) {

    public static final String DEFAULT_MAX_HEAP = "64m";
    public static final Duration DEFAULT_REPLY_TIMEOUT = Duration.ofSeconds(30);

    public WorkerSpec {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(mainClass, "mainClass is null");
        Objects.requireNonNull(maxHeap, "maxHeap is null");
        Objects.requireNonNull(replyTimeout, "replyTimeout is null");
        arguments = List.copyOf(arguments);
        jvmOptions = List.copyOf(jvmOptions);
        if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("worker name must be one word: '" + name + "'");
        }
        if (replyTimeout.isNegative() || replyTimeout.isZero()) {
            throw new IllegalArgumentException("replyTimeout must be positive: " + replyTimeout);
        }
    }

    /** A worker running {@code mainClass} with the default heap, no extra options and the default timeout. */
    public static WorkerSpec of(String name, Class<?> mainClass, String... arguments) {
        return new WorkerSpec(
                name, mainClass.getName(), List.of(arguments), DEFAULT_MAX_HEAP, List.of(), DEFAULT_REPLY_TIMEOUT);
    }

    public WorkerSpec withJvmOptions(List<String> options) {
        return new WorkerSpec(name, mainClass, arguments, maxHeap, options, replyTimeout);
    }

    public WorkerSpec withMaxHeap(String heap) {
        return new WorkerSpec(name, mainClass, arguments, heap, jvmOptions, replyTimeout);
    }

    public WorkerSpec withReplyTimeout(Duration timeout) {
        return new WorkerSpec(name, mainClass, arguments, maxHeap, jvmOptions, timeout);
    }
}
