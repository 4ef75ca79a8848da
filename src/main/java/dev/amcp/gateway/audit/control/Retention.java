package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.governance.control.RequiresOperator;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.ScheduledWork;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the database bounded: code runs, their recordings (kept shorter), decided approvals and the admin audit log
 * older than their settings are deleted in batches ({@link RetentionDeletes}). One node of a cluster purges at a time
 * and each purge runs once per {@value #EVERY_SETTING} across the cluster ({@link ScheduledWork}); an operator may run
 * it at once ({@code POST /api/retention/run}). A setting of 0 days keeps those rows for good. Monthly usage counts
 * ({@code code_run_usage}) are separate rows and stay.
 */
@ApplicationScoped
public class Retention {

    public static final String WORK = "retention";
    public static final String CODE_RUNS_SETTING = "AMCP_RETENTION_CODE_RUNS_DAYS";
    public static final String RECORDINGS_SETTING = "AMCP_RETENTION_RECORDINGS_DAYS";
    public static final String APPROVALS_SETTING = "AMCP_RETENTION_APPROVALS_DAYS";
    public static final String AUDIT_SETTING = "AMCP_RETENTION_AUDIT_DAYS";
    public static final String BATCH_SETTING = "AMCP_RETENTION_BATCH";
    public static final String EVERY_SETTING = "AMCP_RETENTION_EVERY_HOURS";
    /** How long a node may hold the purge before another may take it (a node that died holding it). */
    static final Duration LEASE = Duration.ofHours(1);
    /** Nodes read the cluster's changes within a second; a day of them is kept for looking into a cluster's behaviour. */
    static final int CLUSTER_EVENT_DAYS = 1;
    /** The sign-in throttle forgets a count 15 minutes after its last failure; the row goes a day later. */
    static final int LOGIN_FAILURE_DAYS = 1;
    /** An editor session ends after 30 idle minutes; its row goes a day later. */
    static final int EDITOR_SESSION_DAYS = 1;
    private static final Logger LOG = Logger.getLogger(Retention.class.getName());

    /** Days each kind of row is kept (0: for good) and the rows one batch deletes. */
    public record Policy(int codeRunsDays, int recordingsDays, int approvalsDays, int auditDays, int batch) {

        public JsonObject json() {
            return JsonSupport.JSON.createObjectBuilder().add("codeRunsDays", codeRunsDays).add("recordingsDays", recordingsDays)
                    .add("approvalsDays", approvalsDays).add("auditDays", auditDays).add("batch", batch).build();
        }
    }

    @Inject
    Settings settings;

    @Inject
    ScheduledWork work;

    @Inject
    RetentionDeletes deletes;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> schedule;

    void start(@Observes Startup startup) {
        long hours = settings.getLong(EVERY_SETTING, 24);
        if (hours > 0) {
            // Each node looks every 15 minutes whether a purge is due; the lease and the last finish make it one.
            schedule = scheduler.scheduleWithFixedDelay(() -> runIfDue(Duration.ofHours(hours)), 1, 15, TimeUnit.MINUTES);
        }
    }

    @PreDestroy
    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    public Policy policy() {
        return new Policy(days(CODE_RUNS_SETTING, 90), days(RECORDINGS_SETTING, 14), days(APPROVALS_SETTING, 30), days(AUDIT_SETTING, 365),
                (int) Math.max(1, Math.min(100_000, settings.getLong(BATCH_SETTING, 1000))));
    }

    /** The policy, where the purge stands and how it last ended. */
    @RequiresOperator
    public JsonObject status(Caller caller) {
        var answer = JsonSupport.JSON.createObjectBuilder().add("policy", policy().json())
                .add("everyHours", settings.getLong(EVERY_SETTING, 24));
        work.state(WORK).ifPresent(s -> {
            if (s.leasedUntil() != null && s.leasedUntil().isAfter(Instant.now())) {
                answer.add("running", JsonSupport.JSON.createObjectBuilder().add("node", s.leasedBy()).add("since", String.valueOf(s.lastStartedAt())));
            }
            if (s.lastFinishedAt() != null) {
                answer.add("lastRun", JsonSupport.JSON.createObjectBuilder().add("finishedAt", s.lastFinishedAt().toString())
                        .add("result", JsonSupport.parseObject(s.lastResult() == null ? "{}" : s.lastResult())));
            }
        });
        return answer.build();
    }

    /** Purges now, unless another node is purging (empty then). */
    @RequiresOperator
    public Optional<JsonObject> runNow(Caller caller) {
        return work.runUnderLease(WORK, LEASE, () -> purge(policy(), Instant.now()));
    }

    private void runIfDue(Duration every) {
        try {
            work.runIfDue(WORK, every, LEASE, () -> purge(policy(), Instant.now()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "The retention purge failed; it is tried again later: " + e.getMessage(), e);
        }
    }

    /**
     * The delete of one batch per kind, oldest rows first, with the cutoff as {@code ?1}: recordings (by their run's
     * start), code runs (not running or paused), decided approvals, audit rows, cluster events, the sign-in throttle's
     * counts and idle editor sessions. Plain SQL that runs on PostgreSQL and H2.
     */
    public static Map<String, String> statements(int batch) {
        Map<String, String> statements = new LinkedHashMap<>();
        statements.put("recordings", "delete from code_run_recordings where run_id in (select r.run_id from code_run_recordings r "
                + "join code_runs c on c.run_id = r.run_id where c.started_at < ?1 fetch first " + batch + " rows only)");
        statements.put("codeRuns", oldest("code_runs", "id", "started_at < ?1 and status not in ('RUNNING', 'PAUSED') order by id", batch));
        statements.put("approvals", oldest("code_approvals", "id", "created_at < ?1 and status <> 'PENDING'", batch));
        statements.put("audit", oldest("admin_audit", "id", "at < ?1 order by id", batch));
        statements.put("clusterEvents", oldest("cluster_events", "id", "at < ?1 order by id", batch));
        statements.put("loginFailures", oldest("login_failures", "failure_key", "last_failure < ?1", batch));
        statements.put("editorSessions", oldest("editor_sessions", "id_hash", "last_access_at < ?1", batch));
        return statements;
    }

    /** Deletes one batch of {@code table}'s rows that {@code condition} picks, by their {@code key}. */
    private static String oldest(String table, String key, String condition, int batch) {
        return "delete from " + table + " where " + key + " in (select " + key + " from " + table + " where " + condition
                + " fetch first " + batch + " rows only)";
    }

    /** Deletes what the policy no longer keeps, kind by kind, batch by batch; answers the counts and the time taken. */
    JsonObject purge(Policy policy, Instant now) {
        long started = System.nanoTime();
        // A recording goes at the latest with its run.
        int recordingDays = policy.codeRunsDays() == 0 ? policy.recordingsDays()
                : policy.recordingsDays() == 0 ? policy.codeRunsDays() : Math.min(policy.recordingsDays(), policy.codeRunsDays());
        Map<String, Integer> days = Map.of("recordings", recordingDays, "codeRuns", policy.codeRunsDays(),
                "approvals", policy.approvalsDays(), "audit", policy.auditDays(), "clusterEvents", CLUSTER_EVENT_DAYS,
                "loginFailures", LOGIN_FAILURE_DAYS, "editorSessions", EDITOR_SESSION_DAYS);
        var result = JsonSupport.JSON.createObjectBuilder();
        statements(policy.batch()).forEach((kind, statement) -> result.add(kind, purge(kind, days.get(kind), now, statement, policy.batch())));
        return result.add("millis", (System.nanoTime() - started) / 1_000_000).build();
    }

    private long purge(String what, int days, Instant now, String statement, int batch) {
        if (days <= 0) {
            return 0;
        }
        Instant cutoff = now.minus(days, ChronoUnit.DAYS);
        long total = 0;
        int done;
        do {
            done = deletes.batch(statement, cutoff);
            total += done;
        } while (done == batch);
        if (total > 0) {
            long count = total;
            LOG.info(() -> "Retention: deleted " + count + " " + what + " older than " + days + " days (before " + cutoff + ")");
        }
        return total;
    }

    private int days(String setting, int fallback) {
        long value = settings.getLong(setting, fallback);
        if (value < 0 || value > 36_500) {
            LOG.warning(() -> setting + "=" + value + " is not 0 (keep for good) to 36500 days; using " + fallback);
            return fallback;
        }
        return (int) value;
    }
}
