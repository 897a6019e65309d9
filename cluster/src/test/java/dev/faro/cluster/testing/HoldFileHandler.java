package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test task {@code hold-file}: creates the file its payload names and leaves, as a worker attribute, an object that
 * deletes it when closed, as a transport's node-lifetime objects hold files under {@code /dev/shm}.
 */
public final class HoldFileHandler implements TaskHandler {

    @Override
    public String type() {
        return "hold-file";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) {
        Path file = Path.of(payload.asText());
        try {
            Files.createFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AutoCloseable deleter = () -> Files.deleteIfExists(file);
        context.attributes().put("test.held-file." + file, deleter);
        return TaskReply.empty();
    }
}
