package dev.amcp.gateway.editor.control;

import java.time.Instant;

/**
 * Where {@link LoginThrottle} keeps its counts: the database in the gateway ({@link LoginFailures}, shared by every
 * node of a cluster), a map in unit tests of the throttle's arithmetic.
 */
public interface FailureCounts {

    /**
     * Counts one failure of {@code key} at {@code now} and answers its count: it starts over at 1 when the last failure
     * was before {@code forgetBefore} and no lock holds at {@code now}.
     */
    int add(String key, Instant now, Instant forgetBefore);

    /** Locks {@code key} until {@code until}, unless it is locked longer already. */
    void lock(String key, Instant until);

    /** Until when {@code key} is locked; {@code null} when it never was. */
    Instant lockedUntil(String key);

    /** Forgets {@code key}'s failures. */
    void clear(String key);
}
