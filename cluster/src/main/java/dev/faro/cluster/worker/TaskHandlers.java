package dev.faro.cluster.worker;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The installed {@link TaskHandler}s by type, loaded once with {@link ServiceLoader}. Two handlers of one type are a
 * packaging error and fail the worker's start with both class names.
 */
public final class TaskHandlers {

    private final Map<String, TaskHandler> byType;

    private TaskHandlers(Map<String, TaskHandler> byType) {
        this.byType = Map.copyOf(byType);
    }

    /** The handlers visible to {@code loader}. */
    public static TaskHandlers load(ClassLoader loader) {
        Map<String, TaskHandler> byType = new TreeMap<>();
        for (TaskHandler handler : ServiceLoader.load(TaskHandler.class, loader)) {
            TaskHandler previous = byType.putIfAbsent(handler.type(), handler);
            if (previous != null) {
                throw new IllegalStateException("two task handlers for type '" + handler.type() + "': "
                        + previous.getClass().getName() + " and "
                        + handler.getClass().getName());
            }
        }
        return new TaskHandlers(byType);
    }

    /** The handlers found by this class's loader. */
    public static TaskHandlers load() {
        return load(TaskHandlers.class.getClassLoader());
    }

    /** The handler of {@code type}, or null. */
    public TaskHandler find(String type) {
        return byType.get(type);
    }

    /** The known types, sorted, for error messages. */
    public java.util.Set<String> types() {
        return new java.util.TreeSet<>(byType.keySet());
    }
}
