package dev.faro.cluster.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryExecutor;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchGenerator;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * TPC-H through the cluster runtime: worker JVMs load their share (setup task), plans travel as JSON, node 0's answer
 * comes back through {@link ResultCodec}. The answers equal one in-process node's over the same data (the engine's
 * own tests check those against DuckDB), over the fabric and over the TCP socket baseline. A worker killed between
 * queries is replaced, reloads its share, and the next queries give the same answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchSessionIT {

    private static final double SF = 0.01;

    private TpchSession session;
    private Catalog wholeDatabase;

    @BeforeAll
    void start() {
        TpchSettings settings = new TpchSettings(SF, Placement.RANDOM, 2, EndpointDesign.MESQ_SR);
        session = TpchSession.start(ClusterConfig.local(2).withWorkerHeap("512m"), settings, line -> {});
        wholeDatabase = Catalog.of(new TpchGenerator(SF, 0, 1, Placement.RANDOM, 2).generateAll(t -> {}));
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    void everyImplementedQueryAnswersLikeOneNode() {
        for (int query : TpchQueries.implemented()) {
            QueryOutcome outcome = session.run(query);
            assertThat(outcome.rows()).as("Q" + query).isEqualTo(expected(query));
            assertThat(outcome.bytesShuffled()).as("Q" + query + " shuffles").isPositive();
        }
    }

    @Test
    void everyImplementedQueryOverTheTcpBaselineAnswersLikeOneNode() {
        // the worker JVMs authenticate their TCP shuffle connections with the cluster secret they joined with
        for (int query : TpchQueries.implemented()) {
            QueryOutcome outcome = session.run(query, session.settings().withTcpSockets());
            assertThat(outcome.rows()).as("Q" + query + " over TCP sockets").isEqualTo(expected(query));
            assertThat(outcome.bytesShuffled()).as("Q" + query + " shuffles").isPositive();
        }
    }

    @Test
    void aKilledWorkerIsReplacedWithItsDataAndTheNextQueryWorks() throws Exception {
        long pid = session.nodes() > 1 ? pidOfNode(1) : -1;
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        List<String> failures = new ArrayList<>();
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                QueryOutcome outcome = session.run(10);
                assertThat(outcome.rows()).isEqualTo(expected(10));
                break;
            } catch (ClusterException e) {
                failures.add(e.getMessage()); // the death may be seen by this query; the next one must work
                assertThat(e.getMessage()).contains("node 1");
            }
        }
        assertThat(failures).hasSizeLessThanOrEqualTo(1);
        QueryOutcome next = session.run(3);
        assertThat(next.rows()).isEqualTo(expected(3));
    }

    private long pidOfNode(int node) {
        return session.workerPids().get(node);
    }

    private List<List<Object>> expected(int query) {
        QueryResult result = QueryExecutor.execute(TpchQueries.plan(query), ExecutionContext.local(wholeDatabase, 2));
        return ResultCodec.decodeRows(
                ResultCodec.encodeColumns(result.schema()), ResultCodec.encodeRows(result.schema(), result.batches()));
    }
}
