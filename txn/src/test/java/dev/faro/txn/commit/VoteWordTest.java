package dev.faro.txn.commit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The vote word: yes votes in the low 32 bits, no votes in the high 32 bits. */
class VoteWordTest {

    @Test
    void yesAndNoCountInTheirHalves() {
        long word = 0;
        word += VoteWord.operand(true);
        word += VoteWord.operand(true);
        word += VoteWord.operand(false);
        assertThat(VoteWord.yesVotes(word)).isEqualTo(2);
        assertThat(VoteWord.noVotes(word)).isEqualTo(1);
        assertThat(word).isEqualTo(2 + (1L << 32));
    }

    @Test
    void completeOnlyWhenEveryParticipantVoted() {
        assertThat(VoteWord.complete(0, 0)).isTrue();
        assertThat(VoteWord.complete(VoteWord.YES, 2)).isFalse();
        assertThat(VoteWord.complete(VoteWord.YES + VoteWord.NO, 2)).isTrue();
    }

    @Test
    void commitsOnlyOnUnanimousYes() {
        assertThat(VoteWord.commits(3 * VoteWord.YES, 3)).isTrue();
        assertThat(VoteWord.commits(2 * VoteWord.YES + VoteWord.NO, 3)).isFalse();
        assertThat(VoteWord.commits(3 * VoteWord.NO, 3)).isFalse();
    }

    @Test
    void manyYesVotesNeverSpillIntoTheNoCount() {
        long word = 0xFFFF_FFFEL * VoteWord.YES;
        word += VoteWord.YES;
        assertThat(VoteWord.noVotes(word)).isZero();
        assertThat(VoteWord.yesVotes(word)).isEqualTo(-1); // 2^32 - 1 as unsigned
    }
}
