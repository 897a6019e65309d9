package dev.faro.txn.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.faro.txn.model.TransactionModel;
import org.junit.jupiter.api.Test;

/** The model's micro-benchmarks on a two-node lock manager: every input measured, and Eq. 5.3 built from them. */
class ModelCalibrationTest {

    @Test
    void measuresLocalAndRemoteLocksVoteAndCleanUpAndFeedsTheModel() throws Exception {
        Topology topology = new Topology(2, 1, 1, 64);
        try (LocalLockManager manager = new LocalLockManager("shm", topology, LockManagerOptions.defaults())) {
            TransactionAgent agent = manager.agents().getFirst();
            ModelCalibration calibration = ModelCalibration.measure(agent, 20);
            assertThat(calibration.localLockMicros()).isPositive();
            assertThat(calibration.remoteLockMicros()).isPositive();
            assertThat(calibration.voteMicros())
                    .as("the mixed transactions vote")
                    .isPositive();
            assertThat(calibration.cleanUpMicros()).isPositive();
            assertThat(agent.statistics().transactions())
                    .as("statistics left reset")
                    .isZero();

            TransactionModel model = calibration.model(0.5);
            assertThat(model.transactionMicros(10, 0))
                    .isCloseTo(
                            10 * calibration.localLockMicros() + 10 * 0.5 + calibration.cleanUpMicros(), within(1e-9));
            assertThat(model.transactionMicros(10, 1))
                    .isCloseTo(
                            10 * calibration.remoteLockMicros()
                                    + 10 * 0.5
                                    + calibration.voteMicros()
                                    + calibration.cleanUpMicros(),
                            within(1e-9));
            manager.stopServers();
            for (LockServer server : manager.servers()) {
                assertThat(server.table().isIdle()).isTrue();
            }
        }
    }

    @Test
    void everyAgentCalibratesAtOnceAndTheMeansAreAveraged() throws Exception {
        Topology topology = new Topology(2, 1, 2, 256);
        try (LocalLockManager manager = new LocalLockManager("shm", topology, LockManagerOptions.defaults())) {
            ModelCalibration calibration = ModelCalibration.measureAll(manager.agents(), 20);
            assertThat(calibration.localLockMicros()).isPositive();
            assertThat(calibration.remoteLockMicros()).isPositive();
            assertThat(calibration.voteMicros()).isPositive();
            assertThat(calibration.cleanUpMicros()).isPositive();
            for (TransactionAgent agent : manager.agents()) {
                assertThat(agent.inTransaction()).isFalse();
                assertThat(agent.statistics().transactions()).isZero();
            }
            manager.stopServers();
            for (LockServer server : manager.servers()) {
                assertThat(server.table().isIdle()).as("no lock left held").isTrue();
            }
        }
        ModelCalibration mean =
                ModelCalibration.mean(new ModelCalibration(1, 2, 3, 4, 5, 6), new ModelCalibration(3, 4, 5, 6, 7, 8));
        assertThat(mean).isEqualTo(new ModelCalibration(2, 3, 4, 5, 6, 7));
    }
}
