package dev.faro.engine.plan;

import java.util.Objects;

/** One key of a {@link Sort} or {@link TopN}: a column, the direction, and where NULLs go. */
public record SortKey(String column, boolean ascending, boolean nullsFirst) {

    public SortKey {
        Objects.requireNonNull(column, "column is null");
    }
}
