package dev.faro.fabric.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PostedReceivesTest {

    private static final int DEPTH = 8;
    private static final int RECEIVES = 20_000;

    @Test
    void takesInPostingOrderAndCountsWhatIsPosted() {
        PostedReceives<FakeRegion> receives = new PostedReceives<>(DEPTH);
        FakeRegion region = new FakeRegion();
        PostedReceives.Claimed<FakeRegion> claimed = new PostedReceives.Claimed<>();
        assertThat(receives.take(claimed)).isFalse();
        for (int i = 0; i < DEPTH; i++) {
            receives.add(i, region, 64L * i, 64);
        }
        assertThat(receives.isFull()).isTrue();
        assertThat(receives.count()).isEqualTo(DEPTH);
        for (int i = 0; i < DEPTH; i++) {
            assertThat(receives.take(claimed)).isTrue();
            assertThat(claimed.requestId).isEqualTo(i);
            assertThat(claimed.offset).isEqualTo(64L * i);
            assertThat(claimed.region).isSameAs(region);
        }
        assertThat(receives.take(claimed)).isFalse();
        assertThat(receives.count()).isZero();
    }

    /**
     * One posting thread (under the lock, as {@code postReceive}) races two lock-free takers (a progress thread and a
     * closing thread) through a small ring, so slots are reused while they are taken: every receive is taken exactly
     * once, and whole (its fields belong together).
     */
    @Test
    void racingTakersTakeEveryReceiveExactlyOnceAndWhole() throws Exception {
        PostedReceives<FakeRegion> receives = new PostedReceives<>(DEPTH);
        FakeRegion region = new FakeRegion();
        AtomicIntegerArray taken = new AtomicIntegerArray(RECEIVES);
        AtomicLong takes = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread poster = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < RECEIVES; ) {
                receives.lock.lock();
                try {
                    if (!receives.isFull()) {
                        receives.add(i, region, 3L * i, i);
                        i++;
                    }
                } finally {
                    receives.lock.unlock();
                }
                Thread.onSpinWait();
            }
        });
        Thread[] takers = new Thread[2];
        for (int t = 0; t < takers.length; t++) {
            takers[t] = Thread.ofPlatform().start(() -> {
                PostedReceives.Claimed<FakeRegion> claimed = new PostedReceives.Claimed<>();
                try {
                    while (takes.get() < RECEIVES) {
                        if (receives.take(claimed)) {
                            int id = (int) claimed.requestId;
                            if (claimed.offset != 3L * id || claimed.length != id || claimed.region != region) {
                                throw new AssertionError("torn receive: id=" + id + ", offset=" + claimed.offset
                                        + ", length=" + claimed.length);
                            }
                            taken.incrementAndGet(id);
                            takes.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    takes.set(RECEIVES); // the others stop too
                }
            });
        }
        poster.join(TimeUnit.SECONDS.toMillis(60));
        for (Thread taker : takers) {
            taker.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(taker.isAlive()).as("a taker did not finish").isFalse();
        }
        assertThat(failure.get()).isNull();
        for (int i = 0; i < RECEIVES; i++) {
            assertThat(taken.get(i)).as("times receive %d was taken", i).isEqualTo(1);
        }
        assertThat(receives.count()).isZero();
    }

    private static final class FakeRegion extends AbstractMemoryRegion {
        FakeRegion() {
            super(MemorySegment.NULL, null, 0, 0, Set.of());
        }

        @Override
        protected void withdraw() {}

        @Override
        protected void free() {}
    }
}
