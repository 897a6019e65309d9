package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faro.engine.tpch.TpchQueries;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code faro tpch} end to end: a local cluster of worker JVMs, every implemented query, JSON and table output. */
class TpchCommandIT {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void jsonHasEveryQueryWithRowsAndFigures() throws Exception {
        int exit = run(
                "tpch",
                "--nodes",
                "2",
                "--sf",
                "0.01",
                "--queries",
                "all",
                "--format",
                "json",
                "--worker-heap",
                "512m");
        assertThat(exit).as(err.toString()).isZero();
        JsonNode document = new ObjectMapper().readTree(out.toString());
        assertThat(document.get("nodes").asInt()).isEqualTo(2);
        assertThat(document.get("design").asText()).isEqualTo("MESQ/SR");
        assertThat(document.get("queries")).hasSize(TpchQueries.implemented().size());
        for (JsonNode query : document.get("queries")) {
            assertThat(query.get("rows").size()).as("Q" + query.get("query")).isPositive();
            assertThat(query.get("bytesShuffled").asLong()).isPositive();
            assertThat(query.get("columns").size())
                    .isEqualTo(query.get("rows").get(0).size());
        }
        assertThat(err.toString()).contains("loaded").contains("running Q3");
    }

    @Test
    void tableShowsTheFirstRowsAndTheSummaryOnOneNode() {
        int exit = run(
                "tpch",
                "--nodes",
                "1",
                "--sf",
                "0.01",
                "--queries",
                "4",
                "--rows",
                "2",
                "--design",
                "memq/wr",
                "--worker-heap",
                "512m");
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains(
                        "Q4: 5 rows",
                        "o_orderpriority",
                        "1-URGENT",
                        "... 3 more rows",
                        "TPC-H SF 0.01 on 1 node, MEMQ/WR");
    }
}
