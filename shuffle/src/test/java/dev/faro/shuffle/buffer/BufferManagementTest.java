package dev.faro.shuffle.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.shuffle.buffer.BufferCounters.State;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The pool, the policies and the sender's adaptive ACQUIRE (TODS19 §6), driven by hand. */
class BufferManagementTest {

    private Path directory;
    private Fabric fabric;

    @BeforeEach
    void open() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-buffer-test");
        fabric = Fabrics.open(FabricConfig.of("shm", "buffers").withOption("shm.directory", directory.toString()));
    }

    @AfterEach
    void close() throws IOException {
        fabric.close();
        try (var left = Files.list(directory)) {
            assertThat(left.toList()).isEmpty();
        }
        Files.delete(directory);
    }

    @Test
    void poolRegistersInRegionsUpToItsMaximum() {
        try (BufferPool pool = new BufferPool(fabric, 1024, 4, 10, EnumSet.of(Access.LOCAL_WRITE))) {
            List<ShuffleBuffer> lent = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ShuffleBuffer buffer = pool.borrow();
                assertThat(buffer).isNotNull();
                assertThat(pool.buffer(buffer.index())).isSameAs(buffer);
                lent.add(buffer);
            }
            assertThat(pool.borrow()).as("beyond the maximum").isNull();
            assertThat(pool.counters().regions()).isEqualTo(3); // 4 + 4 + 2
            assertThat(lent.stream().map(ShuffleBuffer::index).distinct()).hasSize(10);
            lent.forEach(pool::giveBack);
            assertThat(pool.counters().lent()).isZero();
            assertThat(pool.borrow()).isNotNull();
        }
    }

    @Test
    void bandwidthDelayProductSizesTheQueue() {
        // 10 GB/s x 20 µs = 200 KB in flight = 4 buffers of 64 KiB (rounded up)
        assertThat(new BufferPolicy.BandwidthDelay(10e9, 20_000, 64 * 1024).initialPerPeer())
                .isEqualTo(4);
        // never below double buffering
        assertThat(new BufferPolicy.BandwidthDelay(1e6, 1_000, 64 * 1024).initialPerPeer())
                .isEqualTo(2);
        assertThatThrownBy(() -> new BufferPolicy.Adaptive(4, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fixedPolicyNeverChangesTheCirculation() {
        try (BufferPool pool = new BufferPool(fabric, 1024, 8, 64, EnumSet.of(Access.LOCAL_WRITE))) {
            SendBuffers buffers = new SendBuffers(pool, new BufferPolicy.Fixed(2), 2);
            List<ShuffleBuffer> taken = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                taken.add(buffers.tryAcquire(() -> 0));
            }
            assertThat(taken).doesNotContainNull();
            assertThat(buffers.tryAcquire(() -> 0))
                    .as("all four are out and nothing completes")
                    .isNull();
            assertThat(buffers.counters().count(State.POPULATE)).isEqualTo(4);
            for (ShuffleBuffer buffer : taken) {
                buffers.transmitting(buffer, 1);
            }
            assertThat(buffers.counters().count(State.TRANSMIT)).isEqualTo(4);
            // a drain that completes all four: the fixed policy keeps them all
            ShuffleBuffer next = buffers.tryAcquire(() -> {
                taken.forEach(b -> buffers.completed(b.index()));
                return 4;
            });
            assertThat(next).isNotNull();
            assertThat(buffers.counters().count(State.WAIT)).isEqualTo(3);
            assertThat(buffers.counters().borrowed()).isEqualTo(4);
            assertThat(buffers.counters().retired()).isZero();
            buffers.transmitting(next, 0);
            buffers.close();
            assertThat(pool.counters().lent()).isZero();
        }
    }

    @Test
    void adaptiveAcquireBorrowsWhenStarvedAndRetiresTheSurplus() {
        try (BufferPool pool = new BufferPool(fabric, 1024, 8, 64, EnumSet.of(Access.LOCAL_WRITE))) {
            SendBuffers buffers = new SendBuffers(pool, new BufferPolicy.Adaptive(1, 8), 2);
            List<ShuffleBuffer> taken = new ArrayList<>();
            taken.add(buffers.tryAcquire(() -> 0));
            taken.add(buffers.tryAcquire(() -> 0));
            // starved: nothing free, nothing completes -> borrow one more instead of waiting
            ShuffleBuffer borrowed = buffers.tryAcquire(() -> 0);
            assertThat(borrowed).isNotNull();
            taken.add(borrowed);
            assertThat(buffers.counters().borrowed()).isEqualTo(3);
            for (ShuffleBuffer buffer : taken) {
                buffers.transmitting(buffer, 1);
            }
            // one drain frees all three: keep one for the caller, retire the other two
            ShuffleBuffer next = buffers.tryAcquire(() -> {
                taken.forEach(b -> buffers.completed(b.index()));
                return 3;
            });
            assertThat(next).isNotNull();
            assertThat(buffers.counters().retired()).isEqualTo(2);
            assertThat(buffers.counters().circulating()).isEqualTo(1);
            assertThat(pool.counters().lent()).isEqualTo(1);
            buffers.transmitting(next, 0);
            buffers.close();
            assertThat(pool.counters().lent()).isZero();
        }
    }
}
