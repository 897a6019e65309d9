package dev.faro.fabric.testing;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.netns.NetworkNamespaces;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Something outside the JDK that some tests need: a system library, a program, root. Each has the name that
 * {@code FARO_REQUIRE} uses and a probe that says, in one line, what is missing and how to get it (or null when it is
 * there). Probes run at most once per JVM. {@link Requires} and {@link Requirements} decide what a test does with the
 * answer.
 */
public enum Requirement {

    /** The system's libucx, which the {@code ucx} provider loads: probed by opening a {@code ucx} node. */
    UCX("ucx", Requirement::ucxMissing),
    /** Root, iproute2 ({@code ip}, {@code tc}) and a kernel that creates network namespaces. */
    NETNS("netns", () -> NetworkNamespaces.unavailableBecause(List.of("tc"))),
    /** nftables ({@code nft}) working inside a network namespace (so also {@link #NETNS}). */
    NFT("nft", () -> NetworkNamespaces.unavailableBecause(List.of("nft"))),
    /** Open MPI's {@code mpicc} and {@code mpirun} on the {@code PATH}: the MPI baseline of the shuffle experiments. */
    MPI("mpi", () -> programsMissing("Open MPI", "openmpi-bin libopenmpi-dev", "mpicc", "mpirun")),
    /** The UCX project's {@code ucx_perftest} on the {@code PATH}: the reference row of {@code bench fabric}. */
    UCX_PERFTEST("ucx-perftest", () -> programsMissing("ucx_perftest", "ucx-utils", "ucx_perftest"));

    private final String key;
    private final Supplier<String> probe;
    private boolean probed;
    private String missing;

    Requirement(String key, Supplier<String> probe) {
        this.key = key;
        this.probe = probe;
    }

    /**
     * The name {@code FARO_REQUIRE} lists: {@code ucx}, {@code netns}, {@code nft}, {@code mpi}, {@code ucx-perftest}.
     */
    public String key() {
        return key;
    }

    /** What is missing and how to get it, in one line; null when this requirement is met here. */
    public synchronized String missing() {
        if (!probed) {
            missing = probe.get();
            probed = true;
        }
        return missing;
    }

    /** The requirement {@code FARO_REQUIRE} calls {@code key}, or null. */
    static Requirement byKey(String key) {
        for (Requirement requirement : values()) {
            if (requirement.key.equals(key.strip().toLowerCase(Locale.ROOT))) {
                return requirement;
            }
        }
        return null;
    }

    /**
     * The provider's own answer: a {@code ucx} node opens, or fails NOT_SUPPORTED with the provider's one line naming
     * what to install. (Only the provider may load libucx: it sets UCX's process settings before the library loads.)
     */
    private static String ucxMissing() {
        try (Fabric fabric =
                Fabrics.open(FabricConfig.of("ucx", "requirement-probe").withOption("ucx.tls", "sm,self"))) {
            return null;
        } catch (FaroException e) {
            return e.category() == FaroException.Category.NOT_SUPPORTED ? e.getMessage() : null;
        }
    }

    private static String programsMissing(String what, String packages, String... programs) {
        for (String program : programs) {
            if (!onPath(program)) {
                return what + " is not installed (no " + program + " on the PATH): apt-get install " + packages;
            }
        }
        return null;
    }

    /** Whether {@code program} is an executable on the {@code PATH} (or in {@code /usr/sbin}, {@code /sbin}). */
    static boolean onPath(String program) {
        return NetworkNamespaces.onPath(program);
    }
}
