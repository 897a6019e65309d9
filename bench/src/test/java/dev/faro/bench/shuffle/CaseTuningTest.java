package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.shuffle.buffer.BufferPolicy;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What the experiments vary travels to the workers intact and reaches the shuffle layer's configuration. */
class CaseTuningTest {

    private final ShuffleCase base = ShuffleCase.of(EndpointDesign.MEMQ_WR, ShufflePattern.REPARTITION, 3, 2, 100);

    @Test
    void aTunedCaseSurvivesEncodeAndDecode() {
        ShuffleCase tuned = base.withTuning(CaseTuning.DEFAULT
                .withCreditWriteBackFrequency(4)
                .withWriteCompletionMode(WriteCompletionMode.POLL_BUFFERS)
                .withBufferPolicy("fixed:8")
                .withReceiveWork(3)
                .withSlowNode(2, 9));

        ShuffleCase decoded = ShuffleCase.decode(Arrays.asList(tuned.encode().split(" ")));

        assertThat(decoded.encode()).isEqualTo(tuned.encode());
        assertThat(decoded.tuning()).isEqualTo(tuned.tuning());
        assertThat(decoded.tuning().receiveWork(0)).isEqualTo(3);
        assertThat(decoded.tuning().receiveWork(2)).isEqualTo(9);
        assertThat(decoded.dataKey()).isEqualTo(base.dataKey());
    }

    @Test
    void wordsWithoutTuningDecodeToTheDefaults() {
        String[] words = base.encode().split(" ");
        ShuffleCase decoded = ShuffleCase.decode(Arrays.asList(words).subList(0, 11));
        assertThat(decoded.tuning()).isEqualTo(CaseTuning.DEFAULT);
    }

    @Test
    void theTuningReachesTheEndpointConfiguration() {
        ShuffleCase tuned = base.withBuffers(4096, 8)
                .withTuning(CaseTuning.DEFAULT
                        .withCreditWriteBackFrequency(4)
                        .withWriteCompletionMode(WriteCompletionMode.POLL_MESSAGE_QUEUE));
        assertThat(tuned.endpointConfig().creditWriteBackFrequency()).isEqualTo(4);
        assertThat(tuned.endpointConfig().writeCompletionMode()).isEqualTo(WriteCompletionMode.POLL_MESSAGE_QUEUE);
        assertThat(tuned.endpointConfig().bufferPolicy()).isEqualTo(new BufferPolicy.Fixed(8));

        ShuffleCase adaptive = ShuffleCase.of(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, 2, 1, 10)
                .withTuning(CaseTuning.DEFAULT.withBufferPolicy("adaptive:2:64"));
        assertThat(adaptive.endpointConfig().bufferPolicy()).isEqualTo(new BufferPolicy.Adaptive(2, 64));
        assertThat(CaseTuning.policy("bdp:1e9:10000", 16, 4096).initialPerPeer())
                .isEqualTo(3);
    }

    @Test
    void theTcpBaselineKeepsTheDataAndUses128KbMessages() {
        ShuffleCase tcp = base.asTcpBaseline();
        assertThat(tcp.isTcp()).isTrue();
        assertThat(tcp.contender()).isEqualTo("TCP");
        assertThat(tcp.label()).startsWith("TCP repartition 3 nodes");
        assertThat(tcp.dataKey()).isEqualTo(base.dataKey());
        assertThat(tcp.tcpConfig().messageBytes()).isEqualTo(128 * 1024);
        assertThat(tcp.tcpConfig().endpointsPerNode()).isEqualTo(2);
        assertThat(tcp.ordered()).isTrue();
    }

    @Test
    void malformedTuningIsRejected() {
        assertThatThrownBy(() -> CaseTuning.DEFAULT.withBufferPolicy("lots")).hasMessageContaining("unknown buffer");
        assertThatThrownBy(() -> CaseTuning.DEFAULT.withBufferPolicy("adaptive:2"))
                .hasMessageContaining("malformed");
        assertThatThrownBy(() -> base.withTuning(CaseTuning.DEFAULT.withSlowNode(3, 1)))
                .hasMessageContaining("slow node out of range");
    }
}
