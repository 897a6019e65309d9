package dev.faro.bench.process;

import dev.faro.fabric.FaroException;
import java.util.List;

/** A worker main for the process tests: echoes, fails, sleeps or dies on command. */
public final class EchoWorker {

    private EchoWorker() {}

    public static void main(String[] args) {
        System.err.println("echo worker " + String.join(" ", args) + " up");
        WorkerChannel.serve(EchoWorker::onCommand);
    }

    private static String onCommand(String verb, List<String> arguments) throws Exception {
        return switch (verb) {
            case "ECHO" -> String.join(" ", arguments);
            case "PRINT" -> {
                System.out.println("stray output that is no reply"); // the channel points System.out at stderr
                yield "printed";
            }
            case "FAIL" -> throw new IllegalStateException("asked to fail\nsecond line");
            case "UNSUPPORTED" ->
                throw new FaroException(
                        FaroException.Category.NOT_SUPPORTED,
                        "this needs libsomething (apt-get install libsomething0)");
            case "SLEEP" -> {
                Thread.sleep(Long.parseLong(arguments.get(0)));
                yield "slept";
            }
            case "DIE" -> {
                System.err.println("dying with " + arguments.get(0));
                System.err.flush();
                Runtime.getRuntime().halt(Integer.parseInt(arguments.get(0)));
                yield "unreachable";
            }
            default -> throw new IllegalArgumentException("unknown command " + verb);
        };
    }
}
