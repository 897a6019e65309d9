/**
 * The {@code faro} command (picocli). Wiring only: parses arguments and hands over to {@code bench} (and later
 * {@code cluster}); no logic of its own lives here.
 */
package dev.faro.cli;
