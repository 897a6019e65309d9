package dev.faro.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.bench.report.ResultTable.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {

    @Test
    void alignsTextLeftAndNumbersRight() {
        ResultTable table = new ResultTable(
                List.of(Column.text("op"), Column.number("GB/s")),
                List.of(List.of("RC WRITE", "1.5"), List.of("UD SEND", "12.25")));
        assertThat(table.format()).isEqualTo("""
                op         GB/s
                ---------------
                RC WRITE    1.5
                UD SEND   12.25
                """);
    }

    @Test
    void refusesRowsOfTheWrongWidth() {
        assertThatThrownBy(() -> new ResultTable(List.of(Column.text("a")), List.of(List.of("1", "2"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 cells");
    }
}
