package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunUsage;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.governance.control.LicenseGate;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.YearMonth;
import java.util.Arrays;
import java.util.Optional;

/** The license gates of code mode, each named for {@code @LicensedFeature}. */
public final class CodeModeGates {

    public static final String WRITES = "codeToolWrites";
    public static final String TOOL_COUNT = "codeToolCount";
    public static final String MONTHLY_RUNS = "monthlyCodeRuns";

    private CodeModeGates() {}

    static <T> Optional<T> argument(Object[] arguments, Class<T> type) {
        return Arrays.stream(arguments).filter(type::isInstance).map(type::cast).findFirst();
    }

    /**
     * {@code allowWrites} needs the Enterprise edition: judged when a code tool is saved (its draft) and again when it
     * runs (a run whose bridge may call write tools), so a downgraded license stops the writes of tools saved before.
     */
    @ApplicationScoped
    public static class Writes implements LicenseGate {
        @Override
        public String name() {
            return WRITES;
        }

        @Override
        public Decision judge(LicenseTerms terms, Object[] arguments) {
            boolean wantsWrites = argument(arguments, CodeToolDraft.class).map(d -> d.spec().allowWrites())
                    .or(() -> argument(arguments, CodeRunRequest.class).map(r -> !r.bridgeCaller().scope().readOnlyOnly()))
                    .orElse(false);
            if (wantsWrites && !terms.allowsWrites()) {
                return Decision.refuse(Message.of("gate.codeToolWrites",
                        "Code tools that write (allowWrites) need the Enterprise edition; this gateway runs the {0} edition",
                        terms.edition().wire()));
            }
            return Decision.allow();
        }
    }

    /**
     * {@code maxCodeTools} per workspace: hard on community and trial, a warning on paid editions. It runs inside the
     * saving transaction and locks the workspace row first, so the count and the insert cannot be raced.
     */
    @ApplicationScoped
    public static class ToolCount implements LicenseGate {
        @PersistenceContext(unitName = "amcp")
        EntityManager em;

        @Override
        public String name() {
            return TOOL_COUNT;
        }

        @Override
        public Decision judge(LicenseTerms terms, Object[] arguments) {
            Caller caller = argument(arguments, Caller.class).orElseThrow();
            Long updating = argument(arguments, Long.class).orElse(-1L);
            // Saves of one workspace take turns from here to their commit, so two cannot both see room for one more.
            em.createNativeQuery("select id from workspaces where id = ? for update").setParameter(1, caller.workspaceId()).getResultList();
            long others = em.createQuery("select count(t) from McpTool t where t.workspaceId = :ws and t.method = :code and t.id <> :self", Long.class)
                    .setParameter("ws", caller.workspaceId()).setParameter("code", McpTool.CODE).setParameter("self", updating)
                    .getSingleResult();
            if (others + 1 <= terms.maxCodeTools()) {
                return Decision.allow();
            }
            String limit = "This workspace would have {0} code tools; the {1} license allows {2}";
            return terms.edition().paid()
                    ? Decision.warn(Message.of("gate.codeToolCount.soft", limit + " (allowed on a paid edition; please extend the license)",
                            others + 1, terms.edition().wire(), terms.maxCodeTools()))
                    : Decision.refuse(Message.of("gate.codeToolCount", limit, others + 1, terms.edition().wire(), terms.maxCodeTools()));
        }
    }

    /**
     * {@code monthlyCodeRuns} per workspace and calendar month (UTC). Admitting a run counts it in the usage ledger in
     * the same step, so the check and the count cannot be split by a racing run.
     */
    @ApplicationScoped
    public static class MonthlyRuns implements LicenseGate {
        @Inject
        CodeRunUsage usage;

        @Override
        public String name() {
            return MONTHLY_RUNS;
        }

        @Override
        public Decision judge(LicenseTerms terms, Object[] arguments) {
            Caller caller = argument(arguments, Caller.class).orElseThrow();
            YearMonth month = argument(arguments, YearMonth.class).orElseThrow();
            if (!usage.tryCount(caller.workspaceId(), month, terms.monthlyCodeRuns())) {
                return Decision.refuse(Message.of("gate.monthlyCodeRuns", "Monthly code-run quota reached: the {0} license allows {1}"
                        + " code runs per workspace per month", terms.edition().wire(), terms.monthlyCodeRuns()));
            }
            return Decision.allow();
        }
    }
}
