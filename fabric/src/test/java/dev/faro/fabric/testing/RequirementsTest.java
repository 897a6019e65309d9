package dev.faro.fabric.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** How {@code FARO_REQUIRE} is read, and the probes that need nothing installed to give their answer. */
class RequirementsTest {

    @Test
    void aCommaListNamesRequirementsAndAllNamesEveryOne() {
        assertThat(Requirements.parse(null)).isEmpty();
        assertThat(Requirements.parse(" ")).isEmpty();
        assertThat(Requirements.parse("ucx, NETNS,,mpi"))
                .containsExactlyInAnyOrder(Requirement.UCX, Requirement.NETNS, Requirement.MPI);
        assertThat(Requirements.parse("nft,ucx-perftest"))
                .containsExactlyInAnyOrder(Requirement.NFT, Requirement.UCX_PERFTEST);
        assertThat(Requirements.parse("all")).isEqualTo(EnumSet.allOf(Requirement.class));
    }

    @Test
    void anUnknownNameFailsSoThatATypoCannotTurnAFailureIntoASkip() {
        assertThatThrownBy(() -> Requirements.parse("ucx,ucxx"))
                .isInstanceOf(AssertionError.class)
                .hasMessage("FARO_REQUIRE=ucx,ucxx names ucxx, unknown; known: ucx, netns, nft, mpi, ucx-perftest,"
                        + " all");
    }

    @Test
    void aProgramProbeNamesTheProgramAndThePackage() {
        assertThat(Requirement.onPath("sh")).isTrue();
        assertThat(Requirement.onPath("no-such-program-faro")).isFalse();
        String mpi = Requirement.MPI.missing();
        if (mpi != null) {
            assertThat(mpi)
                    .startsWith("Open MPI is not installed (no mpi")
                    .endsWith("apt-get install openmpi-bin" + " libopenmpi-dev");
        }
        assertThat(Requirement.UCX_PERFTEST.missing())
                .isEqualTo(
                        Requirement.onPath("ucx_perftest")
                                ? null
                                : "ucx_perftest is not installed (no ucx_perftest on the PATH): apt-get install ucx-utils");
    }
}
