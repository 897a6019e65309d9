package dev.faro.fabric;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A fabric node in a child JVM, driven by {@link CrossProcessConformanceSuite} over its stdin and stdout with one
 * command per line and one reply per line (bytes travel hex-encoded; no Java serialization). Diagnostics go to
 * stderr. The node closes and the process exits on {@code EXIT} or when stdin ends (the parent died); a running
 * stream stops at once then.
 *
 * <pre>
 * parent → child                                         child → parent
 *                                                        READY &lt;node hex&gt; &lt;pid&gt;
 * REGION &lt;lengthBytes&gt; &lt;Access bits&gt;                    REGION &lt;id&gt; &lt;key hex&gt;
 * FILL &lt;region&gt; &lt;offset&gt; &lt;length&gt; &lt;seed&gt;                 OK
 * CHECKSUM &lt;region&gt; &lt;offset&gt; &lt;length&gt;                  CHECKSUM &lt;crc32c&gt;
 * WORD &lt;region&gt; &lt;offset&gt;                                 WORD &lt;value&gt;
 * RC|UD &lt;sendDepth&gt; &lt;receiveDepth&gt;                       RC|UD &lt;qp id&gt; &lt;address hex&gt;
 * CONNECT &lt;qp id&gt; &lt;address hex&gt;                          OK
 * RECV_STREAM &lt;qp&gt; &lt;count|-1&gt; &lt;slotBytes&gt; [&lt;source hex&gt;]  POSTED, later RECEIVED &lt;count&gt; &lt;checksum sum&gt;
 * SEND_STREAM &lt;qp&gt; &lt;count|-1&gt; &lt;seed&gt; &lt;min&gt; &lt;max&gt; [&lt;dest hex&gt;] SENDING, later SENT &lt;count&gt; &lt;checksum sum&gt;
 * STREAMS &lt;send stream&gt; &lt;expected stream&gt;                  OK   (for streams between two children)
 * POST &lt;qp&gt; &lt;opcode&gt; &lt;region&gt; &lt;offset&gt; &lt;length&gt; &lt;key hex|-&gt; &lt;remote offset&gt; &lt;operand&gt; &lt;operand&gt;
 *                                                        COMPLETION &lt;status&gt; &lt;byteLength&gt; (after awaiting it)
 * UD_COUNT &lt;qp&gt; &lt;expected&gt; &lt;slotBytes&gt; &lt;quiet ms&gt;         POSTED, later UD_COUNTED &lt;distinct&gt; &lt;duplicates&gt;
 *                                                        &lt;corrupt&gt; &lt;receivesMissed&gt; &lt;checksum sum of distinct&gt;
 * EXIT                                                   (closes the node and exits 0)
 * any failure                                            ERROR &lt;description&gt;
 * </pre>
 *
 * A stream's messages are {@link TestPayloads} messages of stream {@link #CHILD_STREAM} (child sends) or
 * {@link #PARENT_STREAM} (parent sends), numbered from 0; RC receivers check the order, UD receivers exactly-once.
 * {@code STREAMS} changes which stream a child sends and expects, so two children can stream to each other.
 * {@code UD_COUNT} receives a UD stream that may lose messages (a lossy network): it stops once every message arrived
 * or none arrived for the quiet time, and reports what it saw.
 */
public final class FabricPeerMain {

    public static final int PARENT_STREAM = 0;
    public static final int CHILD_STREAM = 1;
    /** How long a stream may go without any completion before the child gives up and reports an error. */
    private static final Duration IDLE_LIMIT = Duration.ofSeconds(60);

    private static final HexFormat HEX = HexFormat.of();

    private static final String END_OF_INPUT = new String("<end of input>");
    /** Set by the stdin thread on EXIT or end of input; streams stop when they see it. */
    private static volatile boolean exitRequested;

    private final Fabric fabric;
    private int sendStream = CHILD_STREAM;
    private int expectedStream = PARENT_STREAM;
    private final List<MemoryRegion> regions = new ArrayList<>();
    private final List<QueuePair> queuePairs = new ArrayList<>();
    private final List<CompletionQueue> completionQueues = new ArrayList<>();

    private FabricPeerMain(Fabric fabric) {
        this.fabric = fabric;
    }

    public static void main(String[] args) {
        int status = 0;
        try {
            FabricConfig config = parse(args);
            BlockingQueue<String> commands = readCommandsInTheBackground();
            try (Fabric fabric = Fabrics.open(config)) {
                FabricPeerMain peer = new FabricPeerMain(fabric);
                reply("READY " + Long.toHexString(fabric.node()) + " "
                        + ProcessHandle.current().pid());
                String line;
                while ((line = commands.take()) != END_OF_INPUT && !line.equals("EXIT")) {
                    try {
                        peer.handle(line.trim().split(" "));
                    } catch (Throwable t) {
                        t.printStackTrace();
                        reply("ERROR " + line + ": " + oneLine(t));
                    }
                }
            }
        } catch (Throwable t) {
            t.printStackTrace();
            reply("ERROR " + oneLine(t));
            status = 1;
        }
        System.exit(status); // provider threads must not keep a finished child alive
    }

    /**
     * Reads stdin on a daemon thread, so that a running stream notices EXIT or the end of input (the parent is done
     * or dead) and stops instead of running to its end.
     */
    private static BlockingQueue<String> readCommandsInTheBackground() {
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().name("stdin").start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.equals("EXIT")) {
                        exitRequested = true;
                    }
                    commands.add(line);
                }
            } catch (IOException e) {
                e.printStackTrace();
            } finally {
                exitRequested = true;
                commands.add(END_OF_INPUT);
            }
        });
        return commands;
    }

    /** The command-line arguments that make a child open a node with {@code config}. */
    public static List<String> arguments(FabricConfig config) {
        List<String> arguments = new ArrayList<>();
        arguments.add("--provider=" + config.provider());
        arguments.add("--node=" + config.nodeName());
        arguments.add("--peer-timeout-ms=" + config.peerTimeout().toMillis());
        arguments.add("--receiver-not-ready-timeout-ms="
                + config.receiverNotReadyTimeout().toMillis());
        FaultInjection faults = config.faults();
        arguments.add("--faults=" + faults.seed() + "," + faults.lossRate() + "," + faults.reorderRate() + ","
                + faults.duplicateRate());
        config.options().forEach((key, value) -> arguments.add("--option=" + key + "=" + value));
        return arguments;
    }

    static FabricConfig parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0) {
                throw new IllegalArgumentException("argument=" + arg + " is not --name=value");
            }
            String name = arg.substring(2, equals);
            String value = arg.substring(equals + 1);
            if (name.equals("option")) {
                int split = value.indexOf('=');
                options.put(value.substring(0, split), value.substring(split + 1));
            } else {
                values.put(name, value);
            }
        }
        String[] faults = values.getOrDefault("faults", "0,0,0,0").split(",");
        return new FabricConfig(
                values.get("provider"),
                values.get("node"),
                Duration.ofMillis(Long.parseLong(values.get("peer-timeout-ms"))),
                Duration.ofMillis(Long.parseLong(values.get("receiver-not-ready-timeout-ms"))),
                new FaultInjection(
                        Long.parseLong(faults[0]),
                        Double.parseDouble(faults[1]),
                        Double.parseDouble(faults[2]),
                        Double.parseDouble(faults[3])),
                options);
    }

    private void handle(String[] words) {
        switch (words[0]) {
            case "REGION" -> {
                MemoryRegion region = fabric.register(Long.parseLong(words[1]), rights(Integer.parseInt(words[2])));
                regions.add(region);
                reply("REGION " + (regions.size() - 1) + " "
                        + HEX.formatHex(region.remoteKey().toBytes()));
            }
            case "FILL" -> {
                TestPayloads.fill(
                        region(words[1]).segment(),
                        Long.parseLong(words[2]),
                        Long.parseLong(words[3]),
                        Long.parseLong(words[4]));
                reply("OK");
            }
            case "CHECKSUM" ->
                reply("CHECKSUM "
                        + TestPayloads.crc32c(
                                region(words[1]).segment(), Long.parseLong(words[2]), Long.parseLong(words[3])));
            case "WORD" ->
                reply("WORD " + region(words[1]).segment().get(ValueLayout.JAVA_LONG, Long.parseLong(words[2])));
            case "RC", "UD" -> {
                int sendDepth = Integer.parseInt(words[1]);
                int receiveDepth = Integer.parseInt(words[2]);
                CompletionQueue completionQueue = fabric.createCompletionQueue(sendDepth + receiveDepth);
                QueuePairConfig config = QueuePairConfig.of(completionQueue, sendDepth, receiveDepth);
                QueuePair queuePair =
                        words[0].equals("RC") ? fabric.createRcQueuePair(config) : fabric.createUdQueuePair(config);
                queuePairs.add(queuePair);
                completionQueues.add(completionQueue);
                reply(words[0] + " " + (queuePairs.size() - 1) + " "
                        + HEX.formatHex(queuePair.address().toBytes()));
            }
            case "CONNECT" -> {
                ((RcQueuePair) queuePairs.get(Integer.parseInt(words[1])))
                        .connect(fabric.importAddress(HEX.parseHex(words[2])));
                reply("OK");
            }
            case "RECV_STREAM" ->
                receiveStream(
                        Integer.parseInt(words[1]),
                        Long.parseLong(words[2]),
                        Integer.parseInt(words[3]),
                        words.length > 4 ? fabric.importAddress(HEX.parseHex(words[4])) : null);
            case "SEND_STREAM" ->
                sendStream(
                        Integer.parseInt(words[1]),
                        Long.parseLong(words[2]),
                        Long.parseLong(words[3]),
                        Integer.parseInt(words[4]),
                        Integer.parseInt(words[5]),
                        words.length > 6 ? fabric.importAddress(HEX.parseHex(words[6])) : null);
            case "STREAMS" -> {
                sendStream = Integer.parseInt(words[1]);
                expectedStream = Integer.parseInt(words[2]);
                reply("OK");
            }
            case "POST" -> post(words);
            case "UD_COUNT" ->
                countUdStream(
                        Integer.parseInt(words[1]),
                        Integer.parseInt(words[2]),
                        Integer.parseInt(words[3]),
                        Long.parseLong(words[4]));
            default -> reply("ERROR unknown command " + words[0]);
        }
    }

    private void receiveStream(int queuePairId, long count, int slotBytes, QueuePairAddress expectedSource) {
        QueuePair queuePair = queuePairs.get(queuePairId);
        CompletionQueue completionQueue = completionQueues.get(queuePairId);
        int slots = (int) (count < 0 ? queuePair.receiveQueueDepth() : Math.min(queuePair.receiveQueueDepth(), count));
        MemoryRegion buffers = fabric.register((long) slots * slotBytes, EnumSet.of(Access.LOCAL_WRITE));
        for (int slot = 0; slot < slots; slot++) {
            queuePair.postReceive(slot, buffers, (long) slot * slotBytes, slotBytes);
        }
        long postedTotal = slots;
        reply("POSTED");
        boolean ordered = queuePair.type() == QueuePairType.RC;
        boolean[] seen = ordered ? null : new boolean[(int) count];
        long received = 0;
        long checksumSum = 0;
        WorkCompletion[] completions = WorkCompletion.array(32);
        long lastProgressNs = System.nanoTime();
        while (count < 0 || received < count) {
            if (exitRequested) {
                reply("ERROR receive stream stopped by EXIT after " + received + " messages");
                return;
            }
            int polled = completionQueue.await(completions, 1, TimeUnit.SECONDS);
            if (polled == 0) {
                if (System.nanoTime() - lastProgressNs > IDLE_LIMIT.toNanos()) {
                    reply("ERROR receive stream idle for " + IDLE_LIMIT + " after " + received + " messages");
                    return;
                }
                continue;
            }
            lastProgressNs = System.nanoTime();
            for (int i = 0; i < polled; i++) {
                WorkCompletion completion = completions[i];
                if (completion.status() != CompletionStatus.SUCCESS || completion.opcode() != Opcode.RECEIVE) {
                    reply("ERROR receive " + received + ": " + completion);
                    return;
                }
                long offset = completion.requestId() * slotBytes;
                String problem = TestPayloads.verifyMessage(buffers.segment(), offset, completion.byteLength());
                int stream = problem == null ? TestPayloads.stream(buffers.segment(), offset) : -1;
                long sequence = problem == null ? TestPayloads.sequence(buffers.segment(), offset) : -1;
                if (problem == null && stream != expectedStream) {
                    problem = "message of stream " + stream;
                } else if (problem == null && ordered && sequence != received) {
                    problem = "expected message " + received + ", got " + sequence;
                } else if (problem == null && !ordered && (sequence < 0 || sequence >= count || seen[(int) sequence])) {
                    problem = "message " + sequence + " unexpected or duplicated";
                } else if (problem == null
                        && expectedSource != null
                        && (completion.sourceNode() != expectedSource.node()
                                || completion.sourceQueuePairNumber() != expectedSource.queuePairNumber())) {
                    problem = "source " + completion + " is not " + Long.toHexString(expectedSource.node()) + "/"
                            + expectedSource.queuePairNumber();
                }
                if (problem != null) {
                    reply("ERROR receive " + received + ": " + problem);
                    return;
                }
                if (!ordered) {
                    seen[(int) sequence] = true;
                }
                checksumSum += TestPayloads.statedChecksum(buffers.segment(), offset);
                received++;
                if (count < 0 || postedTotal < count) {
                    queuePair.postReceive(completion.requestId(), buffers, offset, slotBytes);
                    postedTotal++;
                }
            }
        }
        reply("RECEIVED " + received + " " + checksumSum);
    }

    private void sendStream(
            int queuePairId, long count, long seed, int minBytes, int maxBytes, QueuePairAddress destination) {
        QueuePair queuePair = queuePairs.get(queuePairId);
        CompletionQueue completionQueue = completionQueues.get(queuePairId);
        int depth = queuePair.sendQueueDepth();
        MemoryRegion buffers = fabric.register((long) depth * maxBytes, EnumSet.noneOf(Access.class));
        WorkRequest request = new WorkRequest();
        WorkCompletion[] completions = WorkCompletion.array(depth);
        reply("SENDING");
        long posted = 0;
        long completed = 0;
        long checksumSum = 0;
        long lastProgressNs = System.nanoTime();
        while (count < 0 || completed < count) {
            if (exitRequested) {
                reply("ERROR send stream stopped by EXIT after " + completed + " completions");
                return;
            }
            while ((count < 0 || posted < count) && posted - completed < depth) {
                long offset = (posted % depth) * maxBytes;
                int length = TestPayloads.messageLength(seed, sendStream, posted, minBytes, maxBytes);
                checksumSum += TestPayloads.writeMessage(buffers.segment(), offset, sendStream, posted, length);
                queuePair.postSend(request.clear()
                        .requestId(posted)
                        .opcode(Opcode.SEND)
                        .local(buffers, offset, length)
                        .destination(destination));
                posted++;
            }
            int polled = completionQueue.await(completions, 1, TimeUnit.SECONDS);
            if (polled == 0 && System.nanoTime() - lastProgressNs > IDLE_LIMIT.toNanos()) {
                reply("ERROR send stream idle for " + IDLE_LIMIT + " after " + completed + " completions");
                return;
            }
            for (int i = 0; i < polled; i++) {
                if (completions[i].status() != CompletionStatus.SUCCESS) {
                    reply("ERROR send " + completed + ": " + completions[i]);
                    return;
                }
                completed++;
                lastProgressNs = System.nanoTime();
            }
        }
        reply("SENT " + completed + " " + checksumSum);
    }

    /** POST: one signaled request, then its completion (bounded by {@link #IDLE_LIMIT}). */
    private void post(String[] words) {
        int queuePairId = Integer.parseInt(words[1]);
        QueuePair queuePair = queuePairs.get(queuePairId);
        CompletionQueue completionQueue = completionQueues.get(queuePairId);
        Opcode opcode = Opcode.valueOf(words[2]);
        WorkRequest request = new WorkRequest()
                .requestId(1)
                .opcode(opcode)
                .local(region(words[3]), Long.parseLong(words[4]), Integer.parseInt(words[5]));
        if (!words[6].equals("-")) {
            request.remote(fabric.importRemoteKey(HEX.parseHex(words[6])), Long.parseLong(words[7]));
        }
        if (opcode == Opcode.COMPARE_SWAP) {
            request.compareSwap(Long.parseLong(words[8]), Long.parseLong(words[9]));
        } else {
            request.add(Long.parseLong(words[8])).immediate((int) Long.parseLong(words[9]));
        }
        queuePair.postSend(request);
        WorkCompletion[] completions = WorkCompletion.array(1);
        if (completionQueue.await(completions, IDLE_LIMIT.toMillis(), TimeUnit.MILLISECONDS) == 0) {
            reply("ERROR no completion of " + opcode + " within " + IDLE_LIMIT);
            return;
        }
        reply("COMPLETION " + completions[0].status() + " " + completions[0].byteLength());
    }

    /**
     * UD_COUNT: receives a UD stream of {@code expected} messages that may lose some, until all arrived or none came
     * for {@code quietMillis}; every arrival is checked (intact, of the expected stream, in range).
     */
    private void countUdStream(int queuePairId, int expected, int slotBytes, long quietMillis) {
        QueuePair queuePair = queuePairs.get(queuePairId);
        CompletionQueue completionQueue = completionQueues.get(queuePairId);
        int slots = Math.min(queuePair.receiveQueueDepth(), expected);
        MemoryRegion buffers = fabric.register((long) slots * slotBytes, EnumSet.of(Access.LOCAL_WRITE));
        for (int slot = 0; slot < slots; slot++) {
            queuePair.postReceive(slot, buffers, (long) slot * slotBytes, slotBytes);
        }
        reply("POSTED");
        boolean[] seen = new boolean[expected];
        long distinct = 0;
        long duplicates = 0;
        long corrupt = 0;
        long checksumSum = 0;
        WorkCompletion[] completions = WorkCompletion.array(32);
        long lastArrivalNs = System.nanoTime();
        while (distinct < expected
                && !exitRequested
                && System.nanoTime() - lastArrivalNs < TimeUnit.MILLISECONDS.toNanos(quietMillis)) {
            int polled = completionQueue.await(completions, 50, TimeUnit.MILLISECONDS);
            for (int i = 0; i < polled; i++) {
                WorkCompletion completion = completions[i];
                if (completion.status() != CompletionStatus.SUCCESS || completion.opcode() != Opcode.RECEIVE) {
                    reply("ERROR UD receive: " + completion);
                    return;
                }
                lastArrivalNs = System.nanoTime();
                long offset = completion.requestId() * slotBytes;
                String problem = TestPayloads.verifyMessage(buffers.segment(), offset, completion.byteLength());
                long sequence = problem == null ? TestPayloads.sequence(buffers.segment(), offset) : -1;
                if (problem != null
                        || TestPayloads.stream(buffers.segment(), offset) != expectedStream
                        || sequence < 0
                        || sequence >= expected) {
                    corrupt++;
                } else if (seen[(int) sequence]) {
                    duplicates++;
                } else {
                    seen[(int) sequence] = true;
                    distinct++;
                    checksumSum += TestPayloads.statedChecksum(buffers.segment(), offset);
                }
                queuePair.postReceive(completion.requestId(), buffers, offset, slotBytes);
            }
        }
        reply("UD_COUNTED " + distinct + " " + duplicates + " " + corrupt + " "
                + ((UdQueuePair) queuePair).receivesMissed() + " " + checksumSum);
    }

    private MemoryRegion region(String id) {
        return regions.get(Integer.parseInt(id));
    }

    private static Set<Access> rights(int bits) {
        Set<Access> rights = EnumSet.noneOf(Access.class);
        for (Access access : Access.values()) {
            if ((bits & access.bit()) != 0) {
                rights.add(access);
            }
        }
        return rights;
    }

    private static synchronized void reply(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static String oneLine(Throwable t) {
        return String.valueOf(t).replace('\n', ' ').replace('\r', ' ');
    }
}
