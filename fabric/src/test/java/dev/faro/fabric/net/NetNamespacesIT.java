package dev.faro.fabric.net;

import static dev.faro.fabric.FabricTesting.ALL_RIGHTS;
import static dev.faro.fabric.FabricTesting.SEED;
import static dev.faro.fabric.FabricTesting.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.PeerProcess;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code net} provider between two "hosts": network namespaces joined by a veth pair ({@link TestNetwork}), one
 * worker JVM ({@code FabricPeerMain}) in each, bound to its namespace's address; this JVM only relays addresses and
 * keys and checks checksums.
 *
 * <ul>
 *   <li>a clean link: WRITE, READ and atomics from one worker on the other's memory, RC SEND streams both ways, a UD
 *       stream — every byte checksum-verified;</li>
 *   <li>a lossy, slow link: nftables drops 5 % of the fabric's UDP and TCP packets in both namespaces and a {@code tbf}
 *       qdisc caps both ends at 100 Mbit/s (this kernel has no netem): RC stays exactly-once and in order, and UD
 *       delivers each message at most once, intact, and a loss is found by counting (the typed NETWORK error the
 *       UD shuffle designs raise);</li>
 *   <li>a link that goes down mid-stream: both workers see error completions within a bounded time, and exit
 *       cleanly.</li>
 * </ul>
 * Needs root, {@code ip}, {@code nft} and {@code tc}; where namespaces cannot be created it says so in one loud line
 * and is skipped, or fails under {@code FARO_REQUIRE=netns,nft} (CI installs iproute2 and nftables and sets it).
 */
@Requires({Requirement.NETNS, Requirement.NFT})
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class NetNamespacesIT {

    private static final String SECRET = "faro-namespaces-" + Long.toHexString(System.nanoTime());
    private static final int PORT_A = 7101;
    private static final int PORT_B = 7102;
    private static final int REGION_BYTES = 2 << 20;
    private static final Duration STREAM_WAIT = Duration.ofSeconds(120);

    private TestNetwork network;
    private final List<PeerProcess> workers = new ArrayList<>();

    @BeforeEach
    void createNetwork() throws IOException {
        network = TestNetwork.create();
    }

    @AfterEach
    void removeNetwork() {
        List<String> problems = new ArrayList<>();
        for (PeerProcess worker : workers) {
            String problem = worker.closeAndDescribeProblems();
            if (problem != null) {
                problems.add(problem);
            }
        }
        workers.clear();
        if (network != null) {
            network.close();
        }
        assertThat(problems).as("workers exited cleanly").isEmpty();
    }

    private PeerProcess worker(String host, String address, int port, Duration peerTimeout) throws IOException {
        FabricConfig config = FabricConfig.of(NetFabricProvider.NAME, host)
                .withPeerTimeout(peerTimeout)
                .withReceiverNotReadyTimeout(Duration.ofSeconds(60))
                .withOption(NetFabricProvider.BIND_OPTION, address)
                .withOption(NetFabricProvider.PORT_OPTION, Integer.toString(port))
                .withOption(NetFabricProvider.SECRET_OPTION, SECRET);
        PeerProcess worker = PeerProcess.start(config, TestNetwork.inside(host));
        workers.add(worker);
        return worker;
    }

    /** Two workers, one per host, with an RC queue pair each, connected; returns {a, b, qpA, qpB} ids. */
    private Pair pair(Duration peerTimeout) throws IOException {
        PeerProcess a = worker(TestNetwork.HOST_A, TestNetwork.ADDRESS_A, PORT_A, peerTimeout);
        PeerProcess b = worker(TestNetwork.HOST_B, TestNetwork.ADDRESS_B, PORT_B, peerTimeout);
        String[] rcA = a.call("RC 16 64", "RC");
        String[] rcB = b.call("RC 16 64", "RC");
        a.call("CONNECT " + rcA[1] + " " + rcB[2], "OK");
        b.call("CONNECT " + rcB[1] + " " + rcA[2], "OK");
        a.call("STREAMS 2 3", "OK"); // a sends stream 2 and expects 3; b the reverse
        b.call("STREAMS 3 2", "OK");
        return new Pair(a, b, rcA[1], rcB[1]);
    }

    private record Pair(PeerProcess a, PeerProcess b, String rcA, String rcB) {}

    @Test
    void crossNodeOperationsOnACleanLink() throws Exception {
        Pair pair = pair(Duration.ofSeconds(5));
        oneSidedOperations(pair, new int[] {1, 100, 4096, 65_544, 1 << 20});
        rcStream(pair.a(), pair.rcA(), pair.b(), pair.rcB(), 2000, 64 * 1024);
        rcStream(pair.b(), pair.rcB(), pair.a(), pair.rcA(), 2000, 64 * 1024);
        String outcome = udStream(pair, 1000, 4096, 0);
        System.out.println("[namespaces] clean link: UD " + outcome);
    }

    @Test
    void lossyCappedLinkKeepsRcExactlyOnceAndUdAtMostOnce() throws Exception {
        String ports = PORT_A + ", " + PORT_B;
        for (String[] host :
                new String[][] {{TestNetwork.HOST_A, TestNetwork.LINK_A}, {TestNetwork.HOST_B, TestNetwork.LINK_B}}) {
            TestNetwork.dropPackets(host[0], 5, ports);
            TestNetwork.capBandwidth(host[0], host[1], "100mbit");
        }
        Pair pair = pair(Duration.ofSeconds(15)); // retransmissions of retransmissions can stall TCP for seconds
        oneSidedOperations(pair, new int[] {100, 65_544, 1 << 20});
        rcStream(pair.a(), pair.rcA(), pair.b(), pair.rcB(), 1000, 16 * 1024);
        rcStream(pair.b(), pair.rcB(), pair.a(), pair.rcA(), 500, 16 * 1024);
        long udpDroppedBefore = TestNetwork.droppedPackets(TestNetwork.HOST_A)[0];
        String outcome = udStream(pair, 2000, 1024, -1);
        long[] droppedA = TestNetwork.droppedPackets(TestNetwork.HOST_A);
        long[] droppedB = TestNetwork.droppedPackets(TestNetwork.HOST_B);
        System.out.printf(
                "[namespaces] lossy link: UD %s; nft dropped UDP %d (during the UD stream %d), TCP %d + %d"
                        + " packets%n",
                outcome, droppedA[0], droppedA[0] - udpDroppedBefore, droppedA[1], droppedB[1]);
        assertThat(droppedA[1] + droppedB[1])
                .as("TCP packets nftables dropped (the RC checks ran on a lossy link)")
                .isPositive();
    }

    @Test
    void aLinkThatGoesDownTurnsIntoErrorCompletionsOnBothHosts() throws Exception {
        Duration peerTimeout = Duration.ofSeconds(2);
        Pair pair = pair(peerTimeout);
        pair.b().call("RECV_STREAM " + pair.rcB() + " -1 65536", "POSTED");
        pair.a().call("SEND_STREAM " + pair.rcA() + " -1 " + SEED + " 64 65536", "SENDING");
        TimeUnit.MILLISECONDS.sleep(500); // let the stream run; not a measurement

        long downNs = System.nanoTime();
        TestNetwork.linkDown(TestNetwork.HOST_B, TestNetwork.LINK_B);
        String sender = String.join(" ", pair.a().expect("ERROR", WAIT.plus(peerTimeout)));
        long senderMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - downNs);
        String receiver = String.join(" ", pair.b().expect("ERROR", WAIT.plus(peerTimeout)));
        long receiverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - downNs);
        System.out.printf(
                "[namespaces] link down: sender failed after %d ms (%s), receiver after %d ms (%s);"
                        + " peer timeout %d ms%n",
                senderMs, sender, receiverMs, receiver, peerTimeout.toMillis());
        assertThat(sender).as("the sender's error").containsAnyOf("RETRY_EXCEEDED", "FLUSHED");
        assertThat(receiver).as("the receiver's error").containsAnyOf("FLUSHED", "RETRY_EXCEEDED");
    }

    // ================================================================================================ checks

    /** WRITEs of each size from a into b's memory, a READ back, atomics: a's and b's checksums agree. */
    private static void oneSidedOperations(Pair pair, int[] sizes) {
        PeerProcess a = pair.a();
        PeerProcess b = pair.b();
        int allRights = Access.toBits(ALL_RIGHTS);
        String[] regionA = a.call("REGION " + REGION_BYTES + " " + allRights, "REGION");
        String[] regionB = b.call("REGION " + REGION_BYTES + " " + allRights, "REGION");
        for (int i = 0; i < sizes.length; i++) {
            int length = sizes[i];
            long remoteOffset = i % 2 == 0 ? 0 : 4099;
            a.call("FILL " + regionA[1] + " 0 " + length + " " + (SEED + i), "OK");
            String[] completion = a.call(
                    String.join(
                            " ",
                            "POST",
                            pair.rcA(),
                            "WRITE",
                            regionA[1],
                            "0",
                            Integer.toString(length),
                            regionB[2],
                            Long.toString(remoteOffset),
                            "0",
                            "0"),
                    "COMPLETION");
            assertThat(completion[1]).as("WRITE of %d bytes", length).isEqualTo("SUCCESS");
            assertThat(checksum(b, regionB[1], remoteOffset, length))
                    .as("b's checksum of a's WRITE of %d bytes", length)
                    .isEqualTo(checksum(a, regionA[1], 0, length));
        }
        int readBytes = 300_000;
        b.call("FILL " + regionB[1] + " 1000000 " + readBytes + " " + (SEED + 77), "OK");
        String[] read = a.call(
                String.join(
                        " ",
                        "POST",
                        pair.rcA(),
                        "READ",
                        regionA[1],
                        "8",
                        Integer.toString(readBytes),
                        regionB[2],
                        "1000000",
                        "0",
                        "0"),
                "COMPLETION");
        assertThat(read[1]).as("READ").isEqualTo("SUCCESS");
        assertThat(checksum(a, regionA[1], 8, readBytes))
                .as("a's checksum of what it READ")
                .isEqualTo(checksum(b, regionB[1], 1_000_000, readBytes));
        long word = REGION_BYTES - 8;
        b.call("FILL " + regionB[1] + " " + word + " 8 0", "OK");
        long initial = Long.parseLong(b.call("WORD " + regionB[1] + " " + word, "WORD")[1]);
        for (int i = 0; i < 20; i++) {
            String[] added = a.call(
                    String.join(
                            " ",
                            "POST",
                            pair.rcA(),
                            "FETCH_ADD",
                            regionA[1],
                            "0",
                            "8",
                            regionB[2],
                            Long.toString(word),
                            "3",
                            "0"),
                    "COMPLETION");
            assertThat(added[1]).as("FETCH_ADD %d", i).isEqualTo("SUCCESS");
            assertThat(Long.parseLong(a.call("WORD " + regionA[1] + " 0", "WORD")[1]))
                    .as("old value %d", i)
                    .isEqualTo(initial + 3L * i);
        }
        String[] swapped = a.call(
                String.join(
                        " ",
                        "POST",
                        pair.rcA(),
                        "COMPARE_SWAP",
                        regionA[1],
                        "0",
                        "8",
                        regionB[2],
                        Long.toString(word),
                        Long.toString(initial + 60),
                        "7"),
                "COMPLETION");
        assertThat(swapped[1]).isEqualTo("SUCCESS");
        assertThat(Long.parseLong(b.call("WORD " + regionB[1] + " " + word, "WORD")[1]))
                .isEqualTo(7);
    }

    private static long checksum(PeerProcess worker, String region, long offset, long length) {
        return Long.parseLong(worker.call("CHECKSUM " + region + " " + offset + " " + length, "CHECKSUM")[1]);
    }

    /** An RC SEND stream from {@code sender} to {@code receiver}: every message once, in order, checksums equal. */
    private static void rcStream(
            PeerProcess sender,
            String senderQueuePair,
            PeerProcess receiver,
            String receiverQueuePair,
            int messages,
            int maxBytes) {
        receiver.call("RECV_STREAM " + receiverQueuePair + " " + messages + " " + maxBytes, "POSTED");
        sender.call("SEND_STREAM " + senderQueuePair + " " + messages + " " + SEED + " 64 " + maxBytes, "SENDING");
        String[] sent = sender.expect("SENT", STREAM_WAIT);
        String[] received = receiver.expect("RECEIVED", STREAM_WAIT);
        assertThat(Long.parseLong(received[1]))
                .as("messages received once, in order")
                .isEqualTo(messages);
        assertThat(Long.parseLong(sent[1])).isEqualTo(messages);
        assertThat(Long.parseLong(received[2]))
                .as("sum of checksums (seed=%d)", SEED)
                .isEqualTo(Long.parseLong(sent[2]));
    }

    /**
     * A UD stream from a to b. Each message arrives at most once and intact; the receiver counts them, and a shortfall
     * becomes the typed NETWORK error, as the UD shuffle designs raise it. Returns what happened.
     *
     * @param minimumLoss the datagrams known lost (nftables counted them) the shortfall must cover, or -1 to read them
     *     from nftables after the stream
     */
    private static String udStream(Pair pair, int messages, int maxBytes, long minimumLoss) throws IOException {
        String[] udA = pair.a().call("UD 32 1", "UD");
        String[] udB = pair.b().call("UD 1 1024", "UD");
        long droppedBefore = minimumLoss < 0 ? TestNetwork.droppedPackets(TestNetwork.HOST_A)[0] : 0;
        pair.b().call("UD_COUNT " + udB[1] + " " + messages + " " + maxBytes + " 3000", "POSTED");
        pair.a()
                .call(
                        "SEND_STREAM " + udA[1] + " " + messages + " " + SEED + " 64 " + maxBytes + " " + udB[2],
                        "SENDING");
        String[] sent = pair.a().expect("SENT", STREAM_WAIT);
        String[] counted = pair.b().expect("UD_COUNTED", STREAM_WAIT);
        long known = minimumLoss < 0 ? TestNetwork.droppedPackets(TestNetwork.HOST_A)[0] - droppedBefore : minimumLoss;
        long distinct = Long.parseLong(counted[1]);
        assertThat(Long.parseLong(sent[1])).isEqualTo(messages);
        assertThat(Long.parseLong(counted[2])).as("UD messages delivered twice").isZero();
        assertThat(Long.parseLong(counted[3])).as("UD messages corrupted").isZero();
        assertThat(distinct).as("UD messages delivered").isLessThanOrEqualTo(messages);
        assertThat(messages - distinct)
                .as("UD messages missing: at least those nftables dropped")
                .isGreaterThanOrEqualTo(known);
        if (distinct == messages) {
            assertThat(Long.parseLong(counted[5]))
                    .as("checksums of a complete UD stream")
                    .isEqualTo(Long.parseLong(sent[2]));
            return "delivered all " + messages + " messages exactly once";
        }
        FaroException lost = countUdMessages(messages, distinct);
        assertThat(lost.category()).isEqualTo(FaroException.Category.NETWORK);
        return "lost " + (messages - distinct) + " of " + messages + " (nftables dropped " + known
                + "; receives missed " + counted[4] + ") -> " + lost.getMessage();
    }

    /** Message counting, as the UD designs do it: fewer messages than announced is a NETWORK error. */
    private static FaroException countUdMessages(long announced, long received) {
        try {
            if (received < announced) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "UD lost " + (announced - received) + " of " + announced + " messages: restart the query");
            }
            throw new AssertionError("nothing lost");
        } catch (FaroException e) {
            return e;
        }
    }
}
