package dev.faro.bench.fabric;

/**
 * One run of one point: the fabric operation and the memcpy baseline, measured back to back in the initiator.
 *
 * @param operation the fabric stream
 * @param memcpy the memcpy stream over the same sizes and working set
 */
record RunSample(Measurement operation, Measurement memcpy) {

    /** The protocol form: {@code operation/memcpy}, no spaces. */
    String encode() {
        return operation.encode() + "/" + memcpy.encode();
    }

    static RunSample decode(String text) {
        String[] parts = text.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("not a run sample: '" + text + "'");
        }
        return new RunSample(Measurement.decode(parts[0]), Measurement.decode(parts[1]));
    }
}
