package dev.faro.cluster.tpch;

import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.Objects;

/**
 * What a {@link TpchSession} runs: the database (scale factor, placement), the engine threads per node and the shuffle
 * design of the exchanges.
 */
public record TpchSettings(double scaleFactor, Placement placement, int threads, EndpointDesign design) {

    public TpchSettings {
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scaleFactor);
        }
        Objects.requireNonNull(placement, "placement is null");
        Objects.requireNonNull(design, "design is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads per node must be positive, got " + threads);
        }
    }

    public TpchSettings withDesign(EndpointDesign value) {
        return new TpchSettings(scaleFactor, placement, threads, value);
    }
}
