package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * An open takes one gather once the multiplexers are connected, so a peer may send before this node routed the
 * exchange: the network thread holds such messages (ends included) and hands them over once the exchange is routed,
 * in arrival order, and drops only messages of closed exchanges.
 */
class EarlyMessageTest {

    @Test
    void messagesArrivingBeforeTheExchangeIsRoutedAreHeldUntilItIs() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            // the first query connects the multiplexers (three gathers); later opens take one
            DecoupledExchangeTest.runQuery(cluster, "connect", nodes, TransmissionGroups.repartition(nodes), 1_000);
            for (int query = 0; query < 3; query++) {
                // node 2 routes each exchange 200 ms after the others could send: their messages and ends arrive first
                List<HyperTransport> transports =
                        cluster.query((node, peers) -> node == 2 ? new SlowAfterGather(peers, 200) : peers);
                long[][] got = DecoupledExchangeTest.runQuery(
                        cluster, transports, "late" + query, nodes, TransmissionGroups.repartition(nodes), 20_000);
                for (int node = 0; node < nodes; node++) {
                    assertThat(got[node])
                            .as("count and sum at node %d", node)
                            .containsExactly(DecoupledExchangeTest.expected(
                                    nodes, 20_000, value -> (int) (value % nodes), node));
                }
                DecoupledExchangeTest.assertPoolsIdle(cluster);
            }
            for (Multiplexer multiplexer : cluster.multiplexers) {
                assertThat(multiplexer.dropped()).as("messages dropped").isZero();
            }
        }
    }

    @Test
    void anIdIsEarlyUntilItsGenerationIsMappedAndLateAfter() {
        ExchangeTable table = new ExchangeTable(2);
        int first = ExchangeTable.id(5, 1);
        int second = ExchangeTable.id(5, 2);
        assertThat(table.isEarly(1, first))
                .as("nothing mapped for the slot yet")
                .isTrue();
        table.map(1, first, null);
        assertThat(table.isEarly(1, first)).as("mapped: not early").isFalse();
        assertThat(table.isEarly(1, second)).as("the slot's next use").isTrue();
        assertThat(table.isEarly(0, second)).as("another peer's slot").isTrue();
        table.map(1, second, null);
        assertThat(table.isEarly(1, first))
                .as("an older use of the slot is late")
                .isFalse();
        table.map(1, ExchangeTable.id(5, 0xFFFF), null);
        assertThat(table.isEarly(1, ExchangeTable.id(5, 0)))
                .as("the next use, the generation wrapped")
                .isTrue();
        assertThat(table.isEarly(1, ExchangeTable.id(5, 0xFFFE)))
                .as("an older use")
                .isFalse();
    }

    /** A replaced peer is a new process whose slots count their generations from 1 again: its ids are early again. */
    @Test
    void aReplacedPeersIdsAreEarlyAgain() {
        ExchangeTable table = new ExchangeTable(2);
        table.map(1, ExchangeTable.id(5, 7), null);
        assertThat(table.isEarly(1, ExchangeTable.id(5, 1)))
                .as("before the replacement: late")
                .isFalse();
        table.forgetPeer(1);
        assertThat(table.isEarly(1, ExchangeTable.id(5, 1)))
                .as("the new process's first use of the slot")
                .isTrue();
        assertThat(table.incoming(1, ExchangeTable.id(5, 7)))
                .as("no route left")
                .isNull();
    }

    /** A bootstrap member that returns from each gather {@code delayMillis} late: its node routes late. */
    private record SlowAfterGather(PeerExchange peers, long delayMillis) implements PeerExchange {
        @Override
        public int nodeIndex() {
            return peers.nodeIndex();
        }

        @Override
        public int nodes() {
            return peers.nodes();
        }

        @Override
        public byte[][] allGather(String key, byte[] local) {
            byte[][] all = peers.allGather(key, local);
            LockSupport.parkNanos(delayMillis * 1_000_000);
            return all;
        }
    }
}
