package dev.faro.bench.zerosided;

import static java.lang.Math.ceilDiv;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The DFI-like baseline's parts, small and in this process: the FETCH_ADD sequencer hands every number out once
 * across concurrent sources, and the ordered multicast delivers one sequence to every target while three sources
 * race (V5's exactly-once check of {@link DfiTupleShuffle} runs in {@link ZeroSidedExperimentsTest}).
 */
class DfiBaselineTest {

    @Test
    void theSequencerHandsOutEveryNumberOnceToConcurrentSources() throws Exception {
        int sources = 3;
        int fetches = 2_000;
        try (DfiNodes dfi = DfiNodes.open(
                        "sequencer-test", sources, DfiNodes.config(4096), TransmissionGroups.broadcast(sources));
                FetchAddSequencer sequencer = new FetchAddSequencer(
                        dfi.fabric(0), new Fabric[] {dfi.fabric(0), dfi.fabric(1), dfi.fabric(2)})) {
            long[][] seen = new long[sources][fetches];
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < sources; s++) {
                int source = s;
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < fetches; i++) {
                        seen[source][i] = sequencer.next(source);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            Set<Long> distinct = new HashSet<>();
            for (int s = 0; s < sources; s++) {
                for (int i = 0; i < fetches; i++) {
                    distinct.add(seen[s][i]);
                    if (i > 0) {
                        assertThat(seen[s][i]).as("a source's numbers rise").isGreaterThan(seen[s][i - 1]);
                    }
                }
                assertThat(sequencer.fetches(s)).isEqualTo(fetches);
            }
            assertThat(distinct)
                    .hasSize(sources * fetches)
                    .allSatisfy(n -> assertThat(n).isBetween(0L, 5_999L));
            // the DfiNodes' streams never started: give them up so that the close does not wait for DEPLETED
            dfi.abandon();
        }
    }

    @Test
    void theOrderedMulticastDeliversOneSequenceToEveryTargetOverEitherChannel() throws Exception {
        for (DfiReplication.Channel channel : DfiReplication.Channel.values()) {
            DfiReplication.Run run = DfiReplication.run(channel, 3, 3, 700, 64, true);
            ReplicatedSequence.check(channel.series(true), run.targets());
            assertThat(ReplicatedSequence.identical(run.targets()))
                    .as(channel.series(true))
                    .isTrue();
            assertThat(run.targets())
                    .allSatisfy(target -> assertThat(target.count()).isEqualTo(2_100));
            assertThat(run.fetchAdds())
                    .as("one FETCH_ADD per segment")
                    .isEqualTo(3 * ceilDiv(700, channel.itemsPerSegment(64)));
        }
    }
}
