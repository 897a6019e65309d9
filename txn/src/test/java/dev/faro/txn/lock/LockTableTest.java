package dev.faro.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.txn.lock.RecordingSink.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lock table: granting, FIFO queues, strict-2PL release, the three deadlock policies, conversions, no leaks. */
class LockTableTest {

    private static final long TIMEOUT_NS = 100_000_000L;

    private final RecordingSink sink = new RecordingSink();

    private LockTable table(DeadlockPolicy policy) {
        return new LockTable(100, 10, 4, policy, TIMEOUT_NS, sink);
    }

    @Test
    void grantedCountersAndGroupModeFollowGrantsAndRelease() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        assertThat(table.request(0, 11, 0, 105, LockMode.IS, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.request(1, 12, 0, 105, LockMode.IX, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.request(2, 13, 0, 105, LockMode.IS, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.grantedCount(105, LockMode.IS)).isEqualTo(2);
        assertThat(table.grantedCount(105, LockMode.IX)).isEqualTo(1);
        assertThat(table.groupMode(105)).isEqualTo(LockMode.IX);
        assertThat(table.release(1, 12, 0)).isEqualTo(1);
        assertThat(table.groupMode(105)).isEqualTo(LockMode.IS);
        table.release(0, 11, 0);
        table.release(2, 13, 0);
        assertThat(table.groupMode(105)).isEqualTo(LockMode.NL);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void queueIsFifoSoACompatibleLateRequestDoesNotOvertakeAWaiter() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        assertThat(table.request(0, 11, 0, 100, LockMode.S, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.request(1, 12, 0, 100, LockMode.X, 1)).isEqualTo(LockTable.QUEUED);
        // compatible with the granted S, but X waits first
        assertThat(table.request(2, 13, 0, 100, LockMode.S, 2)).isEqualTo(LockTable.QUEUED);
        assertThat(table.waiting(100)).isEqualTo(2);

        table.release(0, 11, 10);
        assertThat(sink.take()).containsExactly(new Outcome(true, 1, 12, 100, LockMode.X, 9));
        table.release(1, 12, 20);
        assertThat(sink.take()).containsExactly(new Outcome(true, 2, 13, 100, LockMode.S, 18));
        table.release(2, 13, 30);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void releaseGrantsEveryCompatibleHeadInOrder() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        table.request(0, 11, 0, 100, LockMode.X, 0);
        table.request(1, 12, 0, 100, LockMode.S, 0);
        table.request(2, 13, 0, 100, LockMode.IS, 0);
        table.request(3, 14, 0, 100, LockMode.IX, 0);
        table.release(0, 11, 5);
        assertThat(sink.take())
                .extracting(Outcome::agent, Outcome::granted)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, true), org.assertj.core.groups.Tuple.tuple(2, true));
        assertThat(table.waiting(100)).isEqualTo(1);
        assertThat(table.groupMode(100)).isEqualTo(LockMode.S);
    }

    @Test
    void strictTwoPhaseLockingReleasesEveryLockOfTheTransactionAtOnce() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        for (long lock = 100; lock < 110; lock++) {
            assertThat(table.request(0, 11, 0, lock, LockMode.X, 0)).isEqualTo(LockTable.GRANTED);
        }
        assertThat(table.heldCount(0)).isEqualTo(10);
        assertThat(table.release(0, 99, 0))
                .as("another transaction id releases nothing")
                .isZero();
        assertThat(table.release(0, 11, 0)).isEqualTo(10);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void boundedWaitRefusesTheHeadOnlyAfterTheTimeout() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        table.request(0, 11, 0, 100, LockMode.X, 0);
        table.request(1, 12, 0, 100, LockMode.S, 1_000);
        assertThat(table.expire(1_000 + TIMEOUT_NS)).isZero();
        assertThat(table.hasWaiters()).isTrue();
        assertThat(table.expire(1_001 + TIMEOUT_NS)).isEqualTo(1);
        assertThat(sink.take()).containsExactly(new Outcome(false, 1, 12, 100, LockMode.S, TIMEOUT_NS + 1));
        assertThat(table.hasWaiters()).isFalse();
        assertThat(table.timeouts()).isEqualTo(1);
        // the refused agent may ask again
        assertThat(table.request(1, 12, 0, 101, LockMode.S, 0)).isEqualTo(LockTable.GRANTED);
    }

    @Test
    void oppositeOrderDeadlockIsBrokenByTheTimeout() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        table.request(0, 11, 0, 100, LockMode.X, 0);
        table.request(1, 12, 0, 101, LockMode.X, 0);
        table.request(0, 11, 0, 101, LockMode.X, 10);
        table.request(1, 12, 0, 100, LockMode.X, 20);
        table.expire(15 + TIMEOUT_NS);
        List<Outcome> refused = sink.take();
        assertThat(refused).containsExactly(new Outcome(false, 0, 11, 101, LockMode.X, TIMEOUT_NS + 5));
        // the victim aborts: its end of transaction grants the survivor
        table.release(0, 11, 16 + TIMEOUT_NS);
        assertThat(sink.take())
                .extracting(Outcome::agent, Outcome::granted, Outcome::lockId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, true, 100L));
        table.release(1, 12, 0);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void noWaitRefusesAtOnce() {
        LockTable table = table(DeadlockPolicy.NO_WAIT);
        table.request(0, 11, 0, 100, LockMode.S, 0);
        assertThat(table.request(1, 12, 0, 100, LockMode.X, 0)).isEqualTo(LockTable.DENIED);
        assertThat(table.request(1, 12, 0, 100, LockMode.IS, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.denials()).isEqualTo(1);
        assertThat(table.hasWaiters()).isFalse();
    }

    @Test
    void waitDieLetsOlderWaitAndYoungerDie() {
        LockTable table = table(DeadlockPolicy.WAIT_DIE);
        table.request(0, 11, 50, 100, LockMode.X, 0);
        assertThat(table.request(1, 12, 60, 100, LockMode.X, 0))
                .as("younger dies")
                .isEqualTo(LockTable.DENIED);
        assertThat(table.request(2, 13, 40, 100, LockMode.X, 0))
                .as("older waits")
                .isEqualTo(LockTable.QUEUED);
        assertThat(table.request(3, 14, 45, 100, LockMode.S, 0))
                .as("older than the holder but younger than a waiter: dies")
                .isEqualTo(LockTable.DENIED);
        table.release(0, 11, 1);
        assertThat(sink.take()).extracting(Outcome::agent).containsExactly(2);
    }

    @Test
    void conversionIsCheckedAgainstTheOtherHoldersOnly() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        table.request(0, 11, 0, 100, LockMode.S, 0);
        assertThat(table.request(0, 11, 0, 100, LockMode.IS, 0)).as("covered").isEqualTo(LockTable.GRANTED);
        assertThat(table.heldCount(0)).isEqualTo(1);
        assertThat(table.request(0, 11, 0, 100, LockMode.X, 0))
                .as("sole holder upgrades")
                .isEqualTo(LockTable.GRANTED);
        assertThat(table.groupMode(100)).isEqualTo(LockMode.X);
        table.request(1, 12, 0, 101, LockMode.S, 0);
        table.request(2, 13, 0, 101, LockMode.S, 0);
        assertThat(table.request(1, 12, 0, 101, LockMode.X, 5))
                .as("another S holder")
                .isEqualTo(LockTable.QUEUED);
        table.release(2, 13, 7);
        assertThat(sink.take()).containsExactly(new Outcome(true, 1, 12, 101, LockMode.X, 2));
        table.release(0, 11, 0);
        table.release(1, 12, 0);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void abandonReleasesAGoneAgentsLocksAndItsWaitingRequest() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        table.request(0, 11, 0, 100, LockMode.X, 0);
        table.request(1, 12, 0, 101, LockMode.X, 0);
        table.request(1, 12, 0, 100, LockMode.X, 0);
        table.request(2, 13, 0, 101, LockMode.S, 0);
        assertThat(table.abandon(1, 3)).isEqualTo(1);
        assertThat(sink.take())
                .extracting(Outcome::agent, Outcome::lockId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2, 101L));
        assertThat(table.waiting(100)).isZero();
        table.abandon(0, 3);
        table.abandon(2, 3);
        assertThat(table.isIdle()).isTrue();
    }

    @Test
    void refusesLocksOutsideItsRangeAndASecondWaitingRequest() {
        LockTable table = table(DeadlockPolicy.TIMEOUT);
        assertThatThrownBy(() -> table.request(0, 1, 0, 110, LockMode.S, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not in this server's range [100, 110)");
        table.request(0, 1, 0, 100, LockMode.X, 0);
        table.request(1, 2, 0, 100, LockMode.X, 0);
        assertThatThrownBy(() -> table.request(1, 2, 0, 101, LockMode.X, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already waits");
    }

    @Test
    void randomLoadNeverGrantsIncompatibleLocksAndLeaksNothing() {
        for (DeadlockPolicy policy : DeadlockPolicy.values()) {
            long seed = 42 + policy.ordinal();
            Random random = new Random(seed);
            int agents = 8;
            List<List<long[]>> held = new ArrayList<>();
            for (int a = 0; a < agents; a++) {
                held.add(new ArrayList<>());
            }
            boolean[] waiting = new boolean[agents];
            long[] transaction = new long[agents];
            GrantSink checking = new GrantSink() {
                @Override
                public void onGranted(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
                    waiting[agent] = false;
                    held.get(agent).add(new long[] {lockId, mode.ordinal()});
                }

                @Override
                public void onDenied(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
                    waiting[agent] = false;
                }
            };
            LockTable table = new LockTable(0, 6, agents, policy, 50, checking);
            long now = 0;
            for (int step = 0; step < 40_000; step++) {
                now += random.nextInt(5);
                int agent = random.nextInt(agents);
                if (transaction[agent] == 0) {
                    transaction[agent] = ((long) agent << 32) | step;
                }
                if (!waiting[agent] && random.nextInt(6) > 0) {
                    long lock = random.nextInt(6);
                    LockMode mode = LockMode.values()[1 + random.nextInt(5)];
                    int outcome = table.request(agent, transaction[agent], transaction[agent], lock, mode, now);
                    if (outcome == LockTable.GRANTED) {
                        held.get(agent).add(new long[] {lock, mode.ordinal()});
                    } else if (outcome == LockTable.QUEUED) {
                        waiting[agent] = true;
                    }
                } else if (random.nextInt(3) == 0) {
                    held.get(agent).clear();
                    waiting[agent] = false;
                    table.release(agent, transaction[agent], now);
                    transaction[agent] = 0;
                } else {
                    table.expire(now);
                }
                assertNoConflict(held, "policy " + policy + ", seed " + seed + ", step " + step);
            }
            for (int agent = 0; agent < agents; agent++) {
                table.abandon(agent, now);
            }
            assertThat(table.isIdle()).as("policy %s", policy).isTrue();
            assertThat(table.implicitReleases()).isZero();
        }
    }

    private static void assertNoConflict(List<List<long[]>> held, String where) {
        for (int a = 0; a < held.size(); a++) {
            for (int b = a + 1; b < held.size(); b++) {
                for (long[] x : held.get(a)) {
                    for (long[] y : held.get(b)) {
                        if (x[0] == y[0]) {
                            LockMode mx = LockMode.ofCode((int) x[1]);
                            LockMode my = LockMode.ofCode((int) y[1]);
                            assertThat(mx.isCompatibleWith(my))
                                    .as("%s: agents %d (%s) and %d (%s) both hold lock %d", where, a, mx, b, my, x[0])
                                    .isTrue();
                        }
                    }
                }
            }
        }
    }
}
