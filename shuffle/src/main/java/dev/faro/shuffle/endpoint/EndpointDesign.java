package dev.faro.shuffle.endpoint;

import java.util.Arrays;
import java.util.Locale;

/**
 * The eight shuffle designs of TODS19 (Table 1): an {@link EndpointSharing} mode times an
 * {@link EndpointImplementation}. CLI flags, benchmark parameters and parameterised tests use this enum; the paper's
 * names live only here.
 */
public enum EndpointDesign {
    SESQ_SR(EndpointSharing.SHARED, EndpointImplementation.UD_TWO_SIDED),
    MESQ_SR(EndpointSharing.PER_THREAD, EndpointImplementation.UD_TWO_SIDED),
    SEMQ_SR(EndpointSharing.SHARED, EndpointImplementation.RC_TWO_SIDED),
    MEMQ_SR(EndpointSharing.PER_THREAD, EndpointImplementation.RC_TWO_SIDED),
    SEMQ_RD(EndpointSharing.SHARED, EndpointImplementation.RC_READ),
    MEMQ_RD(EndpointSharing.PER_THREAD, EndpointImplementation.RC_READ),
    SEMQ_WR(EndpointSharing.SHARED, EndpointImplementation.RC_WRITE),
    MEMQ_WR(EndpointSharing.PER_THREAD, EndpointImplementation.RC_WRITE);

    private final EndpointSharing sharing;
    private final EndpointImplementation implementation;

    EndpointDesign(EndpointSharing sharing, EndpointImplementation implementation) {
        this.sharing = sharing;
        this.implementation = implementation;
    }

    public EndpointSharing sharing() {
        return sharing;
    }

    public EndpointImplementation implementation() {
        return implementation;
    }

    /** The paper's name, e.g. "MESQ/SR". */
    public String paperName() {
        return (sharing == EndpointSharing.SHARED ? "SE" : "ME") + implementation.paperName();
    }

    /**
     * Parses a paper name ("MESQ/SR"), a constant name ("MESQ_SR") or either in lower case.
     *
     * @throws IllegalArgumentException naming the known designs
     */
    public static EndpointDesign parse(String text) {
        String normalized =
                text.trim().toUpperCase(Locale.ROOT).replace('/', '_').replace('-', '_');
        for (EndpointDesign design : values()) {
            if (design.name().equals(normalized)) {
                return design;
            }
        }
        throw new IllegalArgumentException("unknown endpoint design '" + text + "'; known: "
                + Arrays.stream(values()).map(EndpointDesign::paperName).toList());
    }
}
