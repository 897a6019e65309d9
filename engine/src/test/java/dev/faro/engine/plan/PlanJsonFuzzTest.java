package dev.faro.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the JSON physical plan decoder ({@link PlanJson#fromJson}) on arbitrary text. The property: the text decodes
 * into a plan whose every node has an output schema and which encodes to JSON that decodes to an equal plan, or
 * {@code fromJson} throws its documented {@link IllegalArgumentException} ("not a valid plan: ..."), never another
 * exception. Crash inputs are kept in {@code PlanJsonFuzzTestInputs}.
 */
class PlanJsonFuzzTest {

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void fromJson(byte[] input) {
        PlanNode plan;
        try {
            plan = PlanJson.fromJson(new String(input, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            assertThat(e).hasMessageStartingWith("not a valid plan");
            return;
        }
        assertThat(plan).isNotNull();
        Deque<PlanNode> nodes = new ArrayDeque<>();
        nodes.push(plan);
        while (!nodes.isEmpty()) {
            PlanNode node = nodes.pop();
            assertThat(node.outputSchema()).isNotNull();
            node.children().forEach(nodes::push);
        }
        assertThat(PlanJson.fromJson(PlanJson.toJson(plan))).isEqualTo(plan);
    }
}
