package dev.faro.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output that remembers why a write failed ({@code faro tpch > /dev/full}, a closed pipe): the
 * {@link java.io.PrintWriter} over it only sets an error flag, and {@link FaroCommand#main} turns the remembered
 * failure into one line on standard error and a non-zero exit. Coordination code; thread-safe.
 */
final class CheckedOutput extends FilterOutputStream {

    private volatile IOException failure;

    CheckedOutput(OutputStream out) {
        super(out);
    }

    /** The first write or flush failure, or null. */
    IOException failure() {
        return failure;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
