package dev.faro.txn.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The model reproduces the predicted rows of the thesis's Table 5.1. */
class TransactionModelTest {

    private static final double[] REMOTE = {0, 0.01, 0.05, 0.10, 0.25, 0.50};
    private static final double[] PREDICTED_MICROS = {67.500, 68.833, 73.511, 78.236, 88.521, 101.992};
    private static final double[] PREDICTED_1260 = {18.67, 18.31, 17.14, 16.11, 14.23, 12.35};
    private static final double[] PREDICTED_2520 = {37.33, 36.61, 34.28, 32.21, 28.47, 24.71};

    @Test
    void reproducesTable51() {
        TransactionModel model = TransactionModel.thesis();
        for (int i = 0; i < REMOTE.length; i++) {
            assertThat(model.transactionMicros(10, REMOTE[i])).isCloseTo(PREDICTED_MICROS[i], within(0.001));
            assertThat(model.throughputPerSecond(1260, 10, REMOTE[i]) / 1e6).isCloseTo(PREDICTED_1260[i], within(0.01));
            assertThat(model.throughputPerSecond(2520, 10, REMOTE[i]) / 1e6).isCloseTo(PREDICTED_2520[i], within(0.01));
        }
    }

    @Test
    void allLocalTransactionsNeverVote() {
        TransactionModel model = new TransactionModel(1, 5, 0, 100, 0);
        assertThat(model.transactionMicros(10, 0)).isEqualTo(20);
        assertThat(TransactionModel.allLocalProbability(0.9, 2)).isCloseTo(0.81, within(1e-12));
    }

    @Test
    void theVoteTermFollowsTheGivenShareOfVotingTransactions() {
        TransactionModel model = new TransactionModel(1, 5, 0, 100, 3);
        // Eq. 5.3 as printed votes with 1 - 0.5^2 = 0.75; with a share given, that share weighs the vote
        assertThat(model.transactionMicros(2, 0.5)).isCloseTo(2 * 2 * 3 + 75 + 3, within(1e-9));
        assertThat(model.transactionMicros(2, 0.5, 0.2)).isCloseTo(2 * 2 * 3 + 20 + 3, within(1e-9));
        assertThat(model.throughputPerSecond(4, 2, 0.5, 0.2)).isCloseTo(4 / 35.0 * 1e6, within(1e-6));
    }
}
