package dev.faro.engine.vector;

/** The SQL types the engine knows; see {@link DataType} for how each is stored. */
public enum TypeKind {
    BOOLEAN,
    INTEGER,
    BIGINT,
    DOUBLE,
    DECIMAL,
    DATE,
    VARCHAR
}
