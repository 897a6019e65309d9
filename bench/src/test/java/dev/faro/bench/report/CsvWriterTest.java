package dev.faro.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvWriterTest {

    @Test
    void writesHeaderAndRowsQuotingWhereNeeded(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("nested/out.csv");
        CsvWriter.write(
                file, List.of("name", "value"), List.of(List.of("plain", "1"), List.of("with,comma", "say \"hi\"")));
        assertThat(Files.readString(file)).isEqualTo("name,value\r\nplain,1\r\n\"with,comma\",\"say \"\"hi\"\"\"\r\n");
    }
}
