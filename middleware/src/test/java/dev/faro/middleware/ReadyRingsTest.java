package dev.faro.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** The list of rings with data: what is marked is taken once, in order from a start, and no mark is ever lost. */
class ReadyRingsTest {

    @Test
    void aReaderSeesOnlyTheMarkedRingsStartingWhereItAsksAndWrappingAround() {
        ReadyRings ready = new ReadyRings(130);
        assertThat(ready.collect()).isFalse();
        assertThat(ready.next(0)).isEqualTo(-1);
        ready.mark(3);
        ready.mark(70);
        ready.mark(129);
        ready.mark(70);
        assertThat(ready.isEmpty()).isFalse();
        assertThat(ready.collect()).isTrue();
        assertThat(ready.next(0)).isEqualTo(3);
        assertThat(ready.next(4)).isEqualTo(70);
        assertThat(ready.next(71)).isEqualTo(129);
        assertThat(ready.next(129)).isEqualTo(129);
        ready.clear(129);
        assertThat(ready.next(71)).as("wraps to the first word").isEqualTo(3);
        ready.clear(3);
        ready.clear(70);
        assertThat(ready.next(0)).isEqualTo(-1);
        assertThat(ready.collect()).as("each mark is taken once").isFalse();
        assertThat(ready.isEmpty()).isTrue();
    }

    @Test
    void aRingMarkedAgainWhileTheReaderHoldsItStaysOnTheListAfterTheReaderClearsIt() {
        ReadyRings ready = new ReadyRings(8);
        ready.mark(5);
        assertThat(ready.collect()).isTrue();
        ready.mark(5); // new data published after the reader took the list
        ready.clear(5); // the reader read what it saw
        assertThat(ready.next(0)).isEqualTo(-1);
        assertThat(ready.collect()).isTrue();
        assertThat(ready.next(0)).isEqualTo(5);
    }

    /**
     * Publishers advance a ring's written count and then mark it, as the network thread and same-process senders do;
     * the reader takes the list, reads every listed ring up to its written count and clears it. When the publishers
     * stop, one more collection must leave nothing unread: a mark lost between a publication and the reader's swap
     * would leave a ring behind.
     */
    @Test
    void noPublicationIsLostBetweenManyPublishersAndTheReader() throws Exception {
        int rings = 70;
        int publishers = 3;
        int perPublisher = 200_000;
        ReadyRings ready = new ReadyRings(rings);
        AtomicLongArray written = new AtomicLongArray(rings);
        long[] read = new long[rings];
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < publishers; p++) {
            int first = p;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perPublisher; i++) {
                    int ring = (first + i * publishers) % rings;
                    written.incrementAndGet(ring);
                    ready.mark(ring);
                }
            }));
        }
        long total = 0;
        long expected = (long) publishers * perPublisher;
        long visits = 0;
        boolean running = true;
        while (running) {
            running = threads.stream().anyMatch(Thread::isAlive);
            if (!ready.collect()) {
                continue;
            }
            int ring = 0;
            while ((ring = ready.next(ring)) >= 0) {
                visits++;
                long now = written.get(ring);
                total += now - read[ring];
                read[ring] = now;
                ready.clear(ring);
            }
        }
        for (Thread thread : threads) {
            thread.join();
        }
        // the publishers have stopped and every one of their marks preceded the last collection
        if (ready.collect()) {
            int ring = 0;
            while ((ring = ready.next(ring)) >= 0) {
                long now = written.get(ring);
                total += now - read[ring];
                read[ring] = now;
                ready.clear(ring);
            }
        }
        assertThat(total).isEqualTo(expected);
        assertThat(visits).isLessThanOrEqualTo(expected);
        assertThat(ready.isEmpty()).isTrue();
    }
}
