package dev.faro.bench.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.zerosided.link.LinkKind;
import org.junit.jupiter.api.Test;

/**
 * Each experiment beyond Fig. 6 once, small, in this process on shared-memory links: it completes, checks its own
 * answers (Q1's merged aggregate against the reference), and prints its table with the paper's figure beside it.
 */
class ZeroSidedExperimentsTest {

    @Test
    void q1LoadBalancingRunsBothModesAndChecksTheAnswer() {
        ExperimentResult result = Q1LoadBalancing.run(LinkKind.SHM, 0.002, 0.2, 1);
        System.out.print(result.text());
        assertThat(result.text()).contains("static", "load-balanced", "paper: static 3.2 s");
        assertThat(result.csvRows()).hasSize(2);
        assertThat(result.csvRows().getFirst()).hasSameSizeAs(result.csvHeader());
    }
}
