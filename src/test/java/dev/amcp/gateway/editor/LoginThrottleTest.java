package dev.amcp.gateway.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.editor.control.FailureCounts;
import dev.amcp.gateway.editor.control.LoginThrottle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Failed sign-ins per account and per address: when the lock starts, how it grows, what clears it. */
class LoginThrottleTest {

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-12-01T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    /** The store's contract as {@code LoginFailures} keeps it in SQL, in a map (the ITs run the SQL). */
    static final class CountsInMemory implements FailureCounts {
        record Row(int failures, Instant lastFailure, Instant lockedUntil) {}

        final Map<String, Row> rows = new HashMap<>();

        @Override
        public int add(String key, Instant now, Instant forgetBefore) {
            Row row = rows.get(key);
            boolean forget = row != null && row.lastFailure().isBefore(forgetBefore)
                    && (row.lockedUntil() == null || !row.lockedUntil().isAfter(now));
            int failures = row == null || forget ? 1 : row.failures() + 1;
            rows.put(key, new Row(failures, now, row == null ? null : row.lockedUntil()));
            return failures;
        }

        @Override
        public void lock(String key, Instant until) {
            Row row = rows.get(key);
            if (row.lockedUntil() == null || row.lockedUntil().isBefore(until)) {
                rows.put(key, new Row(row.failures(), row.lastFailure(), until));
            }
        }

        @Override
        public Instant lockedUntil(String key) {
            Row row = rows.get(key);
            return row == null ? null : row.lockedUntil();
        }

        @Override
        public void clear(String key) {
            rows.remove(key);
        }
    }

    final TestClock clock = new TestClock();
    final CountsInMemory counts = new CountsInMemory();
    final LoginThrottle throttle = new LoginThrottle(clock, counts, 3, 5, 30);

    @Test
    void anAccountIsLockedAfterItsLimitAndTheLockDoublesWithEachFurtherFailure() {
        assertEquals(0, throttle.failed("alice", "10.0.0.1"));
        assertEquals(0, throttle.failed("alice", "10.0.0.2"));
        assertEquals(0, throttle.retryAfterSeconds("alice", "10.0.0.3"));
        assertEquals(30, throttle.failed("Alice ", "10.0.0.3"), "the third failure locks, whatever the address and case");
        assertEquals(30, throttle.retryAfterSeconds("alice", "10.0.0.9"));
        clock.advance(Duration.ofSeconds(10));
        assertEquals(20, throttle.retryAfterSeconds("ALICE", "10.0.0.9"));
        assertEquals(0, throttle.retryAfterSeconds("bob", "10.0.0.9"), "another account from a fresh address is free");
        clock.advance(Duration.ofSeconds(20));
        assertEquals(0, throttle.retryAfterSeconds("alice", "10.0.0.9"));
        assertEquals(60, throttle.failed("alice", "10.0.0.4"), "a failure after the lock doubles it");
        clock.advance(Duration.ofSeconds(60));
        assertEquals(120, throttle.failed("alice", "10.0.0.5"));
    }

    @Test
    void theLockNeverExceedsFifteenMinutes() {
        long lock = 0;
        for (int i = 0; i < 40; i++) {
            clock.advance(Duration.ofSeconds(throttle.retryAfterSeconds("alice", "10.0.9.9"))); // just until it may try again
            lock = throttle.failed("alice", "10.0.0." + i);
        }
        assertEquals(900, lock);
    }

    @Test
    void anAddressIsLockedAfterItsLimitAcrossAccounts() {
        for (int i = 0; i < 4; i++) {
            assertEquals(0, throttle.failed("user" + i, "10.0.0.1"));
        }
        assertEquals(30, throttle.failed("user4", "10.0.0.1"), "the fifth failure from one address locks it");
        assertEquals(30, throttle.retryAfterSeconds("someone-else", "10.0.0.1"));
        assertEquals(0, throttle.retryAfterSeconds("someone-else", "10.0.0.2"));
    }

    @Test
    void successClearsTheAccountButNotTheAddress() {
        throttle.failed("alice", "10.0.0.1");
        throttle.failed("alice", "10.0.0.1");
        throttle.succeeded("alice");
        assertEquals(0, throttle.failed("alice", "10.0.0.2"), "the count started over");
        assertEquals(0, throttle.failed("alice", "10.0.0.2"));
        throttle.failed("x", "10.0.0.1");
        throttle.failed("y", "10.0.0.1");
        assertEquals(30, throttle.failed("z", "10.0.0.1"), "the address kept its two failures from before the success");
    }

    @Test
    void failuresAreForgottenFifteenMinutesAfterTheLast() {
        throttle.failed("alice", "10.0.0.1");
        throttle.failed("alice", "10.0.0.1");
        clock.advance(Duration.ofMinutes(16));
        assertEquals(0, throttle.failed("alice", "10.0.0.1"));
        assertEquals(0, throttle.failed("alice", "10.0.0.1"));
        assertEquals(30, throttle.failed("alice", "10.0.0.1"));
    }

    @Test
    void theStoreNamesNoAccountOrAddress() {
        throttle.failed("alice@example.com", "10.0.0.1");
        assertEquals(2, counts.rows.size());
        for (String key : counts.rows.keySet()) {
            assertTrue(key.matches("(account|address):[0-9a-f]{64}"), key);
        }
    }
}
