package dev.faro.shuffle.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeldBuffersTest {

    @Test
    void highWaterIsTheMostHeldAtOnce() {
        HeldBuffers held = new HeldBuffers();
        assertThat(held.highWater()).isEqualTo(0);
        held.hold();
        held.hold();
        held.release();
        held.hold();
        held.hold();
        assertThat(held.highWater()).isEqualTo(3);
        held.release();
        held.release();
        held.release();
        held.hold();
        assertThat(held.highWater()).isEqualTo(3);
    }

    @Test
    void concurrentHoldsRaiseTheMarkToTheirCount() throws InterruptedException {
        HeldBuffers held = new HeldBuffers();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 1_000; i++) {
                    held.hold();
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(held.highWater()).isEqualTo(8_000);
    }
}
