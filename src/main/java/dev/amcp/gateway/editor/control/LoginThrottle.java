package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing at the editor's sign-in form, per account and per client address. After
 * {@value #ACCOUNT_SETTING} failed sign-ins for one user name (default {@value #DEFAULT_ACCOUNT_FAILURES}), or
 * {@value #ADDRESS_SETTING} from one address (default {@value #DEFAULT_ADDRESS_FAILURES}), further attempts are
 * refused without checking the password for {@value #LOCK_SETTING} seconds (default {@value #DEFAULT_LOCK_SECONDS});
 * every further failure after a lock doubles it, up to {@value #MAX_LOCK_SECONDS} s. A successful sign-in clears its
 * account's count, not its address's; counts are forgotten {@value #FORGET_MINUTES} minutes after the last failure.
 * <p>
 * User names count whether or not such an account exists, so the throttle tells nobody which names exist. Counts are
 * kept in this node's memory (at most {@value #MAX_ENTRIES} names and as many addresses; beyond that, unlocked entries
 * are dropped first): behind a load balancer without sticky sessions each node counts on its own.
 */
@ApplicationScoped
public class LoginThrottle {

    public static final String ACCOUNT_SETTING = "AMCP_LOGIN_MAX_FAILURES";
    public static final String ADDRESS_SETTING = "AMCP_LOGIN_MAX_FAILURES_PER_ADDRESS";
    public static final String LOCK_SETTING = "AMCP_LOGIN_LOCK_SECONDS";
    static final int DEFAULT_ACCOUNT_FAILURES = 5;
    static final int DEFAULT_ADDRESS_FAILURES = 20;
    static final int DEFAULT_LOCK_SECONDS = 30;
    static final int MAX_LOCK_SECONDS = 900;
    static final int FORGET_MINUTES = 15;
    static final int MAX_ENTRIES = 10_000;

    /** The failures of one account or address. */
    private static final class Count {
        int failures;
        Instant lastFailure;
        Instant lockedUntil = Instant.MIN;
    }

    @Inject
    Settings settings;

    private Clock clock = Clock.systemUTC();
    private int accountFailures = DEFAULT_ACCOUNT_FAILURES;
    private int addressFailures = DEFAULT_ADDRESS_FAILURES;
    private long lockSeconds = DEFAULT_LOCK_SECONDS;
    private final Map<String, Count> accounts = new ConcurrentHashMap<>();
    private final Map<String, Count> addresses = new ConcurrentHashMap<>();

    public LoginThrottle() {}

    /** A throttle with fixed limits and clock, for tests. */
    public LoginThrottle(Clock clock, int accountFailures, int addressFailures, long lockSeconds) {
        this.clock = clock;
        this.accountFailures = accountFailures;
        this.addressFailures = addressFailures;
        this.lockSeconds = lockSeconds;
    }

    @PostConstruct
    void configure() {
        accountFailures = positive(ACCOUNT_SETTING, settings.getInt(ACCOUNT_SETTING, DEFAULT_ACCOUNT_FAILURES));
        addressFailures = positive(ADDRESS_SETTING, settings.getInt(ADDRESS_SETTING, DEFAULT_ADDRESS_FAILURES));
        lockSeconds = positive(LOCK_SETTING, settings.getInt(LOCK_SETTING, DEFAULT_LOCK_SECONDS));
    }

    private static int positive(String name, int value) {
        if (value < 1) {
            throw new IllegalStateException("Setting " + name + " must be at least 1, got " + value);
        }
        return value;
    }

    /** Seconds until this account and address may try again; 0 when they may now. */
    public long retryAfterSeconds(String username, String address) {
        Instant now = clock.instant();
        return Math.max(wait(accounts.get(accountKey(username)), now), wait(addresses.get(String.valueOf(address)), now));
    }

    /** Counts a failed sign-in; answers the seconds to wait before the next attempt (0: none yet). */
    public long failed(String username, String address) {
        Instant now = clock.instant();
        long account = count(accounts, accountKey(username), accountFailures, now);
        long fromAddress = count(addresses, String.valueOf(address), addressFailures, now);
        return Math.max(account, fromAddress);
    }

    /** A successful sign-in clears the account's failures (the address keeps its count). */
    public void succeeded(String username) {
        accounts.remove(accountKey(username));
    }

    private long count(Map<String, Count> counts, String key, int limit, Instant now) {
        if (counts.size() >= MAX_ENTRIES && !counts.containsKey(key)) {
            prune(counts, now);
        }
        Count count = counts.computeIfAbsent(key, k -> new Count());
        synchronized (count) {
            if (count.lastFailure != null && now.isAfter(count.lastFailure.plus(Duration.ofMinutes(FORGET_MINUTES)))
                    && !now.isBefore(count.lockedUntil)) {
                count.failures = 0;
            }
            count.failures++;
            count.lastFailure = now;
            if (count.failures >= limit) {
                int doublings = Math.min(count.failures - limit, 20);
                long seconds = Math.min(MAX_LOCK_SECONDS, lockSeconds << doublings);
                count.lockedUntil = now.plusSeconds(seconds);
            }
            return wait(count, now);
        }
    }

    private static long wait(Count count, Instant now) {
        if (count == null) {
            return 0;
        }
        synchronized (count) {
            if (!now.isBefore(count.lockedUntil)) {
                return 0;
            }
            long millis = Duration.between(now, count.lockedUntil).toMillis();
            return (millis + 999) / 1000;
        }
    }

    private static void prune(Map<String, Count> counts, Instant now) {
        counts.values().removeIf(c -> wait(c, now) == 0);
        if (counts.size() >= MAX_ENTRIES) {
            counts.clear(); // only locked entries left, and a flood of them: start over rather than grow
        }
    }

    private static String accountKey(String username) {
        return username == null ? "" : username.strip().toLowerCase(Locale.ROOT);
    }
}
