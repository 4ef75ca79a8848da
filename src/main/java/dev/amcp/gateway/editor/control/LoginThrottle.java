package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Slows down password guessing at the editor's sign-in form, per account and per client address. After
 * {@value #ACCOUNT_SETTING} failed sign-ins for one user name (default {@value #DEFAULT_ACCOUNT_FAILURES}), or
 * {@value #ADDRESS_SETTING} from one address (default {@value #DEFAULT_ADDRESS_FAILURES}), further attempts are
 * refused without checking the password for {@value #LOCK_SETTING} seconds (default {@value #DEFAULT_LOCK_SECONDS});
 * every further failure after a lock doubles it, up to {@value #MAX_LOCK_SECONDS} s. A successful sign-in clears its
 * account's count, not its address's; counts are forgotten {@value #FORGET_MINUTES} minutes after the last failure.
 * <p>
 * User names count whether or not such an account exists, so the throttle tells nobody which names exist. The counts
 * are kept in the database ({@link LoginFailures}), so every node of a cluster counts the same failures; a key is a
 * hash of the name or address, so the table names nobody.
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

    @Inject
    Settings settings;

    @Inject
    FailureCounts counts;

    private Clock clock = Clock.systemUTC();
    private int accountFailures = DEFAULT_ACCOUNT_FAILURES;
    private int addressFailures = DEFAULT_ADDRESS_FAILURES;
    private long lockSeconds = DEFAULT_LOCK_SECONDS;

    public LoginThrottle() {}

    /** A throttle with fixed limits, clock and store, for tests. */
    public LoginThrottle(Clock clock, FailureCounts counts, int accountFailures, int addressFailures, long lockSeconds) {
        this.clock = clock;
        this.counts = counts;
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
        return Math.max(wait(counts.lockedUntil(accountKey(username)), now), wait(counts.lockedUntil(addressKey(address)), now));
    }

    /** Counts a failed sign-in; answers the seconds to wait before the next attempt (0: none yet). */
    public long failed(String username, String address) {
        Instant now = clock.instant();
        long account = count(accountKey(username), accountFailures, now);
        long fromAddress = count(addressKey(address), addressFailures, now);
        return Math.max(account, fromAddress);
    }

    /** A successful sign-in clears the account's failures (the address keeps its count). */
    public void succeeded(String username) {
        counts.clear(accountKey(username));
    }

    private long count(String key, int limit, Instant now) {
        Instant forgetBefore = now.minus(Duration.ofMinutes(FORGET_MINUTES));
        int failures;
        try {
            failures = counts.add(key, now, forgetBefore);
        } catch (RuntimeException raced) {
            failures = counts.add(key, now, forgetBefore); // another node inserted this key's first failure at the same moment
        }
        if (failures < limit) {
            return wait(counts.lockedUntil(key), now);
        }
        int doublings = Math.min(failures - limit, 20);
        Instant until = now.plusSeconds(Math.min(MAX_LOCK_SECONDS, lockSeconds << doublings));
        counts.lock(key, until);
        return wait(until, now);
    }

    private static long wait(Instant lockedUntil, Instant now) {
        if (lockedUntil == null || !now.isBefore(lockedUntil)) {
            return 0;
        }
        long millis = Duration.between(now, lockedUntil).toMillis();
        return (millis + 999) / 1000;
    }

    private static String accountKey(String username) {
        return "account:" + Hashes.sha256(username == null ? "" : username.strip().toLowerCase(Locale.ROOT));
    }

    private static String addressKey(String address) {
        return "address:" + Hashes.sha256(String.valueOf(address));
    }
}
