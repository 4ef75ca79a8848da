package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunRecorder;
import dev.amcp.gateway.audit.control.CodeRunUsage;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.LogContext;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.CancellationListener;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.websocket.DeploymentException;
import java.io.IOException;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs code in the out-of-process runner and never anywhere else: unset or unreachable runner means the run is
 * refused with a clear error. Every run, refused ones included, leaves one {@code code_runs} row.
 */
@ApplicationScoped
public class CodeExecutorService implements CancellationListener {

    private static final Logger LOG = Logger.getLogger(CodeExecutorService.class.getName());

    @Inject
    Settings settings;

    @Inject
    RunnerConnector connector;

    @Inject
    BridgeDispatcher dispatcher;

    @Inject
    CodeRunRecorder recorder;

    @Inject
    CodeRunAdmission admission;

    @Inject
    CodeRunUsage usage;

    @Resource
    ManagedExecutorService executor;

    /** Code runs this node executes at once; more wait briefly, then end as LIMIT (see {@link #admitAndRun}). */
    private Semaphore runSlots;

    @jakarta.annotation.PostConstruct
    void init() {
        runSlots = new Semaphore(settings.getInt("AMCP_CODE_MAX_CONCURRENT_RUNS", 16), true);
    }

    /** Runs in flight on this node, by the request key of the call that started them, for cancellation. */
    private final Map<String, RunSession> active = new ConcurrentHashMap<>();

    public boolean configured() {
        return connector.configured();
    }

    /** The gateway's ceilings, from settings. */
    public RunLimits limits() {
        return new RunLimits(
                settings.getInt("AMCP_CODE_TIMEOUT_MS", 10_000),
                settings.getInt("AMCP_CODE_MEMORY_MB", 128),
                settings.getInt("AMCP_CODE_MAX_BRIDGE_CALLS", 200),
                settings.getInt("AMCP_CODE_MAX_CONCURRENT_BRIDGE_CALLS", 8),
                settings.getInt("AMCP_CODE_MAX_FRAME_BYTES", 1024 * 1024),
                settings.getInt("AMCP_CODE_MAX_RESULT_BYTES", 1024 * 1024),
                settings.getInt("AMCP_CODE_MAX_CONSOLE_BYTES", 64 * 1024));
    }

    public RunOutcome run(CodeRunRequest request) {
        String runId = UUID.randomUUID().toString();
        try (LogContext.Scope logged = LogContext.put(LogContext.RUN_ID, runId)) {
            return runLogged(runId, request);
        }
    }

    private RunOutcome runLogged(String runId, CodeRunRequest request) {
        var invoker = request.invoker();
        long row = recorder.begin(new CodeRunRecorder.RunIdentity(runId, invoker.workspaceId(), request.serverId(), request.toolId(),
                request.toolName(), request.inline(), invoker.userId(), invoker.apiKeyId(), request.runAsMode(),
                request.bridgeCaller().role().name(), Hashes.sha256(request.code())));
        RunOutcome outcome;
        try {
            outcome = connector.unavailableReason().map(reason -> RunOutcome.refused(runId, reason))
                    .orElseGet(() -> admitAndRun(runId, request));
        } catch (RuntimeException e) {
            String reference = runId.substring(0, 8);
            LOG.log(Level.SEVERE, "Code run " + runId + " failed inside the gateway", e);
            outcome = new RunOutcome(runId, RunStatus.ERROR, null, "The gateway failed to run the code (reference " + reference + ")",
                    "", List.of(), 0, 0);
        }
        recorder.finish(row, new CodeRunRecorder.RunEnd(outcome.status().name(), outcome.error(), outcome.traceJson(),
                outcome.trace().size(), JsonSupport.utf8Length(request.code()) + JsonSupport.utf8Length(String.valueOf(request.input())),
                outcome.outputBytes(), JsonSupport.utf8Length(outcome.console()), outcome.console()));
        RunOutcome finished = outcome;
        LOG.fine(() -> "code run " + runId + " " + finished.status() + " in " + finished.wallMs() + " ms, "
                + finished.trace().size() + " bridge call(s)");
        return outcome;
    }

    private RunOutcome admitAndRun(String runId, CodeRunRequest request) {
        YearMonth month = CodeRunUsage.currentMonth();
        try {
            admission.admit(request.invoker(), month);
        } catch (GateRefusedException e) {
            return new RunOutcome(runId, RunStatus.LIMIT, null, e.getMessage(), "", List.of(), 0, 0);
        }
        RunOutcome outcome = runAdmitted(runId, request);
        if (outcome.status() == RunStatus.REFUSED) {
            usage.uncount(request.invoker().workspaceId(), month); // the runner never ran it
        }
        return outcome;
    }

    private RunOutcome runAdmitted(String runId, CodeRunRequest request) {
        // Bridge calls run on executor threads; they carry this request's and run's ids into their log lines.
        var logContext = LogContext.snapshot();
        java.util.concurrent.Executor withContext = task -> executor.execute(() -> {
            try (LogContext.Scope restored = LogContext.restore(logContext)) {
                task.run();
            }
        });
        RunLimits limits = limits();
        // A burst must not take every request thread and pooled connection: beyond the per-node slots a run
        // waits at most its own timeout, then ends as LIMIT (and is audited like any other run).
        try {
            if (!runSlots.tryAcquire(limits.timeoutMs(), TimeUnit.MILLISECONDS)) {
                return new RunOutcome(runId, RunStatus.LIMIT, null, "This gateway is already running its maximum of code runs "
                        + "(AMCP_CODE_MAX_CONCURRENT_RUNS); try again shortly", "", List.of(), 0, 0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RunOutcome(runId, RunStatus.CANCELLED, null, "The run was cancelled while waiting for a slot", "", List.of(), 0, 0);
        }
        try {
            return runInSlot(runId, request, limits, withContext);
        } finally {
            runSlots.release();
        }
    }

    private RunOutcome runInSlot(String runId, CodeRunRequest request, RunLimits limits, java.util.concurrent.Executor withContext) {
        RunSession session = new RunSession(runId, request, limits, dispatcher, withContext);
        String requestKey = CallContext.current().requestKey();
        if (requestKey != null) {
            active.put(requestKey, session);
        }
        try {
            try {
                connector.open(session);
            } catch (DeploymentException | IOException | RuntimeException e) {
                LOG.warning(() -> "Code run " + runId + " refused: the runner did not accept the connection: " + e);
                return RunOutcome.refused(runId, refusal(e));
            }
            return session.await();
        } finally {
            if (requestKey != null) {
                active.remove(requestKey, session);
            }
        }
    }

    /** A client cancelled the call that started a run on this node: ask the runner to stop it. */
    @Override
    public void cancelled(String requestKey, String reason) {
        RunSession session = requestKey == null ? null : active.get(requestKey);
        if (session != null) {
            LOG.info(() -> "Cancelling the code run of request " + requestKey + ": " + reason);
            session.cancel();
        }
    }

    static String refusal(Exception e) {
        String detail = String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
        if (detail.contains("401") || detail.contains("403")) {
            return "The code runner rejected the gateway's credentials (check CODE_RUNNER_TOKEN); the run was refused";
        }
        return "The code runner is unreachable; the run was refused. Code never runs inside the gateway.";
    }
}
