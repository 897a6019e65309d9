package dev.faro.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A fixed-width text table for the terminal: a header, a rule, and rows; text columns align left, number columns
 * right. Immutable once built.
 */
public final class ResultTable {

    /** One column: its title and whether its cells align right (numbers). */
    public record Column(String title, boolean alignRight) {
        public Column {
            Objects.requireNonNull(title, "title is null");
        }

        public static Column text(String title) {
            return new Column(title, false);
        }

        public static Column number(String title) {
            return new Column(title, true);
        }
    }

    private final List<Column> columns;
    private final List<List<String>> rows;

    /**
     * @throws IllegalArgumentException if a row has a different number of cells than there are columns
     */
    public ResultTable(List<Column> columns, List<List<String>> rows) {
        this.columns = List.copyOf(columns);
        List<List<String>> copies = new ArrayList<>(rows.size());
        for (List<String> row : rows) {
            if (row.size() != this.columns.size()) {
                throw new IllegalArgumentException(
                        "row has " + row.size() + " cells, the table " + this.columns.size() + " columns: " + row);
            }
            copies.add(List.copyOf(row));
        }
        this.rows = List.copyOf(copies);
    }

    public List<Column> columns() {
        return columns;
    }

    public List<List<String>> rows() {
        return rows;
    }

    /** The table as lines joined by {@code \n}, two spaces between columns, ending with a newline. */
    public String format() {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = columns.get(c).title().length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        StringBuilder text = new StringBuilder();
        appendLine(text, columns.stream().map(Column::title).toList(), widths);
        int total = 0;
        for (int width : widths) {
            total += width;
        }
        text.append("-".repeat(total + 2 * (widths.length - 1))).append('\n');
        for (List<String> row : rows) {
            appendLine(text, row, widths);
        }
        return text.toString();
    }

    private void appendLine(StringBuilder text, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                line.append("  ");
            }
            String cell = cells.get(c);
            String padding = " ".repeat(widths[c] - cell.length());
            line.append(columns.get(c).alignRight() ? padding + cell : cell + padding);
        }
        text.append(line.toString().stripTrailing()).append('\n');
    }
}
