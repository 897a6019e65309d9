package dev.faro.fabric.testing;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assertions;

/**
 * What a test does about a {@link Requirement} that is missing here: skip, saying so in one loud line, or, when the
 * environment variable {@code FARO_REQUIRE} names it, fail with that line. {@code FARO_REQUIRE} is a comma list of
 * {@link Requirement#key()}s or {@code all} ({@code .ci/run} names everything it installs); a name it does not know
 * fails every test that asks, so that a typo cannot turn a required test into a skipped one.
 *
 * <p>Whole tests say what they need with {@link Requires}; a test that runs either way and only checks more where a
 * requirement is met (the MPI rows of an experiment) asks {@link #available}.
 */
public final class Requirements {

    /** The environment variable that turns skips into failures. */
    public static final String VARIABLE = "FARO_REQUIRE";

    private Requirements() {}

    /**
     * Null if {@code requirement} is met here; otherwise announces that {@code test} is skipped and returns why, or,
     * if {@code FARO_REQUIRE} names it, fails (an {@link AssertionError} with the same line).
     */
    public static String check(Requirement requirement, String test) {
        Set<Requirement> required = required(); // first: a misspelt FARO_REQUIRE fails even where all is installed
        String missing = requirement.missing();
        if (missing == null) {
            return null;
        }
        String line = test + ": " + missing;
        if (required.contains(requirement)) {
            Assertions.fail("FAILED " + line + " (" + VARIABLE + "=" + System.getenv(VARIABLE) + " requires "
                    + requirement.key() + ")");
        }
        announce("SKIPPED " + line + "; or set " + VARIABLE + "=" + requirement.key() + " to make this a failure");
        return missing;
    }

    /**
     * Whether {@code requirement} is met, for a test that runs either way: {@code what} names the part that does not
     * run without it ("ScaleOutExperimentIT's MPI rows"), announced like a skipped test; fails as {@link #check} does.
     */
    public static boolean available(Requirement requirement, String what) {
        return check(requirement, what) == null;
    }

    /** The requirements {@code FARO_REQUIRE} names; fails on a name it does not know. */
    static Set<Requirement> required() {
        return parse(System.getenv(VARIABLE));
    }

    /** The requirements a {@code FARO_REQUIRE} value names (null: none); fails on a name it does not know. */
    static Set<Requirement> parse(String value) {
        Set<Requirement> required = EnumSet.noneOf(Requirement.class);
        if (value == null || value.isBlank()) {
            return required;
        }
        List<String> unknown = new ArrayList<>();
        for (String key : value.split(",")) {
            if (key.strip().equalsIgnoreCase("all")) {
                required.addAll(EnumSet.allOf(Requirement.class));
            } else if (Requirement.byKey(key) != null) {
                required.add(Requirement.byKey(key));
            } else if (!key.isBlank()) {
                unknown.add(key.strip());
            }
        }
        if (!unknown.isEmpty()) {
            List<String> known = new ArrayList<>();
            for (Requirement requirement : Requirement.values()) {
                known.add(requirement.key());
            }
            Assertions.fail(VARIABLE + "=" + value + " names " + String.join(", ", unknown) + ", unknown; known: "
                    + String.join(", ", known) + ", all");
        }
        return required;
    }

    /** One line, loud enough to be found in a build log, on standard output (surefire shows it). */
    private static void announce(String line) {
        System.out.println("#### " + line);
    }
}
