package dev.faro.bench.fabric;

/**
 * One timed stream: what moved and how long it took, with the initiator's counters.
 *
 * @param bytes payload bytes moved
 * @param messages requests (or memcpy calls) completed
 * @param nanos wall-clock time from the first post to the last completion
 * @param polls completion-queue polls by the initiator (0 for memcpy)
 * @param creditWaits times the initiator found no credit and had to wait for the target (two-sided only)
 */
record Measurement(long bytes, long messages, long nanos, long polls, long creditWaits) {

    Measurement {
        if (bytes < 0 || messages < 0 || nanos <= 0 || polls < 0 || creditWaits < 0) {
            throw new IllegalArgumentException("invalid measurement: " + bytes + " B, " + messages + " messages, "
                    + nanos + " ns, " + polls + " polls, " + creditWaits + " credit waits");
        }
    }

    /** Bandwidth in GB/s (1e9 bytes per second). */
    double gigabytesPerSecond() {
        return (double) bytes / nanos;
    }

    /** Message rate in millions of messages per second. */
    double megaMessagesPerSecond() {
        return messages * 1e3 / nanos;
    }

    /** The protocol form: five comma-separated numbers. */
    String encode() {
        return bytes + "," + messages + "," + nanos + "," + polls + "," + creditWaits;
    }

    static Measurement decode(String text) {
        String[] fields = text.split(",");
        if (fields.length != 5) {
            throw new IllegalArgumentException("not a measurement: '" + text + "'");
        }
        return new Measurement(
                Long.parseLong(fields[0]),
                Long.parseLong(fields[1]),
                Long.parseLong(fields[2]),
                Long.parseLong(fields[3]),
                Long.parseLong(fields[4]));
    }
}
