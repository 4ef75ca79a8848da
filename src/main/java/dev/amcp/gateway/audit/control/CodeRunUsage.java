package dev.amcp.gateway.audit.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.YearMonth;
import java.time.ZoneOffset;

/**
 * The ledger of code runs counted against the monthly quota: one {@code code_run_usage} row per workspace and
 * calendar month (UTC). Counting is one conditional update of that row, so it costs the same on the millionth run as on
 * the first, and two nodes racing for the last run of the month cannot both get it.
 */
@ApplicationScoped
public class CodeRunUsage {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** The month runs are counted in now. */
    public static YearMonth currentMonth() {
        return YearMonth.now(ZoneOffset.UTC);
    }

    /**
     * Counts one run if the month's count is still below {@code limit}, in the caller's transaction when there is one
     * (a run's opening row, {@link CodeRunRecorder#begin}), so the count commits with it.
     *
     * @return whether the run was counted (and may go ahead)
     */
    @Transactional
    public boolean tryCount(long workspaceId, YearMonth month, long limit) {
        if (increment(workspaceId, month, limit) == 1) {
            return true;
        }
        // No row for this month yet (or the month is full). ON CONFLICT DO NOTHING: a racing node may create it too.
        em.createNativeQuery("insert into code_run_usage (workspace_id, month_key, runs) values (?, ?, 0) on conflict do nothing")
                .setParameter(1, workspaceId).setParameter(2, key(month)).executeUpdate();
        return increment(workspaceId, month, limit) == 1;
    }

    /** Takes back a counted run that never reached the runner (a refused run does not use up the quota). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void uncount(long workspaceId, YearMonth month) {
        em.createNativeQuery("update code_run_usage set runs = runs - 1 where workspace_id = ? and month_key = ? and runs > 0")
                .setParameter(1, workspaceId).setParameter(2, key(month)).executeUpdate();
    }

    /** Runs counted in a month. Transactional so the connection goes back to the pool at once. */
    @Transactional
    public long counted(long workspaceId, YearMonth month) {
        var rows = em.createNativeQuery("select runs from code_run_usage where workspace_id = ? and month_key = ?")
                .setParameter(1, workspaceId).setParameter(2, key(month)).getResultList();
        return rows.isEmpty() ? 0 : ((Number) rows.get(0)).longValue();
    }

    private int increment(long workspaceId, YearMonth month, long limit) {
        return em.createNativeQuery("update code_run_usage set runs = runs + 1 where workspace_id = ? and month_key = ? and runs < ?")
                .setParameter(1, workspaceId).setParameter(2, key(month)).setParameter(3, limit).executeUpdate();
    }

    static int key(YearMonth month) {
        return month.getYear() * 100 + month.getMonthValue();
    }
}
