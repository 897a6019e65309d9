package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code faro bench tpch --quick} runs its body once: every system measured, the files written. */
class BenchTpchCommandIT {

    @Test
    void aQuickRunMeasuresEverySystemAndWritesTheFiles(@TempDir Path directory) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute("bench", "tpch", "--quick", "--queries", "4", "--out", directory.toString());
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("MESQ/SR÷DuckDB", "Q4");
        List<String> csv = Files.readAllLines(directory.resolve("tpch.csv"));
        assertThat(csv.getFirst()).isEqualTo("query,system,median_s,min_s,max_s,runs,rows,bytes_shuffled");
        assertThat(csv.subList(1, csv.size()))
                .extracting(line -> line.split(",")[1])
                .containsExactly(
                        "MESQ/SR",
                        "SEMQ/SR",
                        "MEMQ/SR",
                        "SEMQ/RD",
                        "MEMQ/RD",
                        "SEMQ/WR",
                        "MEMQ/WR",
                        "TCP sockets",
                        "DuckDB");
        assertThat(directory.resolve("tpch.png")).isNotEmptyFile();
        assertThat(Files.readString(directory.resolve("tpch.json"))).contains("\"scaleFactor\"", "\"machine\"");
    }

    @Test
    void oneNodeMeasuresTheEngineAloneAndProfilesTheWorker(@TempDir Path directory) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(
                "bench",
                "tpch",
                "--quick",
                "--nodes",
                "1",
                "--queries",
                "6",
                "--profile",
                "--out",
                directory.toString());
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("on 1 node x", "Faro÷DuckDB", "Q6", "total", "JFR profiles: ");
        List<String> csv = Files.readAllLines(directory.resolve("tpch.csv"));
        assertThat(csv.subList(1, csv.size()))
                .extracting(line -> line.split(",")[1])
                .containsExactly("Faro", "DuckDB");
        String printed = out.toString()
                .lines()
                .filter(line -> line.startsWith("JFR profiles: "))
                .findFirst()
                .orElseThrow()
                .substring("JFR profiles: ".length());
        for (String file : printed.split(", ")) {
            assertThat(Path.of(file)).isNotEmptyFile().startsWith(directory.resolve("profile"));
            assertThat(file).endsWith(".jfr");
        }
    }
}
