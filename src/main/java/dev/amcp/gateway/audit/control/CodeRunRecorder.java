package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.audit.entity.CodeRunRecording;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Writes the {@code code_runs} audit row of a run in transactions of its own: opened before the run starts and
 * closed when it ends, so a run whose runner dies still leaves its row, and a caller's rollback cannot erase it. The
 * run's admission (the monthly quota's count) commits with the opening row: one transaction, not two.
 */
@ApplicationScoped
public class CodeRunRecorder {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    MetricRegistry metrics;

    /** Who and what a run is, for its audit row. */
    public record RunIdentity(String runId, long workspaceId, Long serverId, Long toolId, String toolName, boolean inline,
                              Long invokerUserId, Long invokerKeyId, String runAsMode, String runAsRole, String codeSha256,
                              String kind, String replayOf) {}

    /**
     * How a run ended, for its audit row; the row keeps the tail of {@code console}. {@code recording} (with the
     * {@code code} it ran) is kept for replays, or {@code null} when the run is not recorded.
     */
    public record RunEnd(String status, String error, JsonObject trace, int bridgeCalls, long inputBytes,
                         long outputBytes, long consoleBytes, String console, String code, JsonObject recording) {}

    /** A starting run's row ({@link #finish} closes it by this key), when it started, and what its admission decided. */
    public record Opened<T>(long rowId, String runId, Instant startedAt, T admission) {}

    /**
     * Writes the row of a starting run (status {@code RUNNING}), then runs {@code admission} in the same transaction,
     * so what it writes (the quota's count) commits with the row or not at all: a run is never counted without its row.
     * The admission reports a refusal in its result; an exception from it rolls both back.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> Opened<T> begin(RunIdentity id, Supplier<T> admission) {
        Instant startedAt = Instant.now();
        CodeRun run = new CodeRun(id.runId(), id.workspaceId(), id.inline(), id.runAsMode(), id.runAsRole(),
                id.codeSha256(), startedAt);
        run.attribute(id.serverId(), id.toolId(), id.toolName(), id.invokerUserId(), id.invokerKeyId());
        run.kind(id.kind(), id.replayOf());
        em.persist(run);
        em.flush(); // assigns the identity key now, so finish() finds the row by key instead of querying by run id
        return new Opened<>(run.getId(), id.runId(), startedAt, admission.get());
    }

    /**
     * Notes on a run's row the approval of the write it paused at (or resumed after): {@code PENDING} until decided,
     * then the decision, who made it and when.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void approval(String runId, String approvalId, String approval, String by, Instant at) {
        em.createQuery("select r from CodeRun r where r.runId = :runId", CodeRun.class).setParameter("runId", runId)
                .getResultStream().findFirst().ifPresent(run -> run.approval(approvalId, approval, by, at));
    }

    /**
     * Closes a run's row with one {@code UPDATE} by its key: reading the row back into an entity first, to change it,
     * was most of this transaction's CPU (JFR: 65 of its 85 samples), and it sits before the run's answer (G10).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void finish(Opened<?> opened, RunEnd end) {
        Instant finishedAt = Instant.now();
        long wallMs = Duration.between(opened.startedAt(), finishedAt).toMillis();
        em.createQuery("update CodeRun r set r.status = :status, r.error = :error, r.bridgeTrace = :trace,"
                        + " r.bridgeCalls = :bridgeCalls, r.inputBytes = :inputBytes, r.outputBytes = :outputBytes,"
                        + " r.consoleBytes = :consoleBytes, r.consoleTail = :consoleTail, r.finishedAt = :finishedAt,"
                        + " r.wallMs = :wallMs where r.id = :id")
                .setParameter("status", end.status()).setParameter("error", CodeRun.clippedError(end.error()))
                .setParameter("trace", end.trace()).setParameter("bridgeCalls", end.bridgeCalls())
                .setParameter("inputBytes", end.inputBytes()).setParameter("outputBytes", end.outputBytes())
                .setParameter("consoleBytes", end.consoleBytes()).setParameter("consoleTail", CodeRun.consoleTailOf(end.console()))
                .setParameter("finishedAt", finishedAt).setParameter("wallMs", wallMs).setParameter("id", opened.rowId())
                .executeUpdate();
        if (end.recording() != null) {
            em.persist(new CodeRunRecording(opened.runId(), end.code(), end.recording()));
        }
        Tag status = new Tag("status", end.status().toLowerCase());
        metrics.counter("amcp_code_runs", status).inc();
        metrics.timer("amcp_code_run_duration", status).update(Duration.ofMillis(wallMs));
        metrics.histogram("amcp_code_run_bridge_calls").update(end.bridgeCalls());
        if ("REFUSED".equals(end.status())) {
            metrics.counter("amcp_code_runner_refusals").inc();
        }
    }

    /**
     * Closes, as {@code ERROR} with {@code error}, the rows of runs that started before {@code startedBefore} and are
     * still {@code RUNNING}: their node stopped, or lost its database, before it wrote their end. A run that does end
     * later keeps its real end ({@link #finish} writes by key). Answers how many rows it closed.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int closeUnfinished(Instant startedBefore, String error) {
        int closed = em.createQuery("update CodeRun r set r.status = 'ERROR', r.error = :error, r.finishedAt = :now "
                        + "where r.status = 'RUNNING' and r.startedAt < :before")
                .setParameter("error", CodeRun.clippedError(error)).setParameter("now", Instant.now()).setParameter("before", startedBefore)
                .executeUpdate();
        if (closed > 0) {
            metrics.counter("amcp_code_runs", new Tag("status", "error")).inc(closed);
        }
        return closed;
    }
}
