package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.vector.Table;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same plans with their exchanges over the plain TCP socket baseline give the same answers as over the fabric. */
class TpchTcpBaselineTest {

    @TempDir
    Path directory;

    @Test
    void q3Q4Q10OverTcpSocketsEqualTheFabricAnswers() throws Exception {
        int nodes = 2;
        List<Catalog> catalogs = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            List<Table> tables = new TpchGenerator(0.01, node, nodes, Placement.RANDOM, 2).generateAll(t -> {});
            catalogs.add(Catalog.of(tables));
        }
        try (InJvmNodes cluster = new InJvmNodes(catalogs, Files.createDirectories(directory.resolve("shm")), 2)) {
            for (int query : List.of(3, 4, 10)) {
                QueryResult fabric = cluster.run(TpchQueries.plan(query), EndpointDesign.MESQ_SR);
                QueryResult tcp = cluster.run(TpchQueries.plan(query), InJvmNodes.TCP);
                assertThat(tcp.rows()).as("Q" + query).isNotEmpty().isEqualTo(fabric.rows());
                assertThat(tcp.statistics().bytesSent()).isPositive();
            }
        }
    }
}
