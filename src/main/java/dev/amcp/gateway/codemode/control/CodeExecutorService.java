package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunRecorder;
import dev.amcp.gateway.audit.control.CodeRunUsage;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.LogContext;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.CancellationListener;
import dev.amcp.gateway.tools.control.SchemaValidator;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
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
    private static final long SLOT_POLL_MS = 100;
    private static final String BUSY = "This gateway is already running its maximum of code runs ("
            + CodeRunSettings.MAX_CONCURRENT_RUNS + ") and as many are waiting for a slot; try again shortly";
    private static final String NO_SLOT = "This gateway is already running its maximum of code runs ("
            + CodeRunSettings.MAX_CONCURRENT_RUNS + ") and no slot came free within the run's wall time; try again shortly";

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

    @Inject
    CodeRunSettings runSettings;

    @Inject
    ToolCatalog catalog;

    @Inject
    SchemaValidator schemaValidator;

    /**
     * Creates the threads that answer bridge calls and close runs' sockets. They are the gateway's own threads (with
     * the application's context), not the server's shared pool: a run parks a request thread of that pool while it
     * waits, and its bridge calls must never wait for a thread of the same pool (under a burst, every pool thread
     * could be a parked request thread, and no run would ever finish).
     */
    @Resource
    ManagedThreadFactory threadFactory;

    /**
     * Bridge-call threads: a run's concurrent bridge calls plus its close, for every run slot, twice over (a slot's next
     * run may start while the calls of the last one are still being interrupted); idle ones end.
     */
    private ThreadPoolExecutor bridgeThreads;

    /** Code runs this node executes at once; more wait, within their own wall time, then end as LIMIT. */
    private Semaphore runSlots;
    /**
     * Runs waiting for a slot, at most as many as there are slots: a waiting run parks a request thread of the
     * server's shared pool, which the running runs need for their frames and bridge calls, so a burst beyond that
     * is refused at once instead of parking every thread.
     */
    private Semaphore slotWaiters;

    @jakarta.annotation.PostConstruct
    void init() {
        runSlots = new Semaphore(runSettings.values().maxConcurrentRuns(), true);
        slotWaiters = new Semaphore(runSettings.values().maxConcurrentRuns());
        int threads = 2 * runSettings.values().maxConcurrentRuns() * (runSettings.limits().maxConcurrentBridgeCalls() + 1);
        bridgeThreads = new ThreadPoolExecutor(0, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), threadFactory);
    }

    @PreDestroy
    void stopBridgeThreads() {
        if (bridgeThreads != null) {
            bridgeThreads.shutdownNow();
        }
    }

    /** Threads answering bridge calls now (for tests). */
    int bridgeThreadsBusy() {
        return bridgeThreads.getActiveCount();
    }

    /** Runs admitted on this node, by the request key of the call that started them, for cancellation. */
    private final Map<String, RunSession> active = new ConcurrentHashMap<>();

    public boolean configured() {
        return connector.configured();
    }

    /** The gateway's ceilings, from settings (checked at start). */
    public RunLimits limits() {
        return runSettings.limits();
    }

    /**
     * Runs the code of a tool call: a dry run when the call asked for one ({@code _meta["amcp/dryRun"]}: reads live,
     * writes planned and never made, the plan in the result's {@code _meta}), else a live run.
     */
    public ToolResult call(CodeRunRequest request) {
        if (!CallContext.current().dryRun()) {
            return CodeResults.toToolResult(run(request));
        }
        DryRunAnswers dry = new DryRunAnswers(dispatcher, catalog, schemaValidator);
        return CodeResults.dryRun(run(request, dry, null), dry.plannedWrites());
    }

    /** A live run: tools are called, and the run is recorded for replay. */
    public RunOutcome run(CodeRunRequest request) {
        return run(request, dispatcher, null);
    }

    /**
     * A run whose bridge calls {@code answers} answers: live ones are recorded for replay ({@code AMCP_CODE_RECORD_MAX_BYTES}
     * caps each part), a replay's row names the run it replays ({@code replayOf}).
     */
    RunOutcome run(CodeRunRequest request, BridgeAnswers answers, String replayOf) {
        return runOrRefuse(request, null, answers, replayOf);
    }

    /** A run that stopped at a write to approve: how it ended ({@code PAUSED} when it did) and the write, or {@code null}. */
    record Paused(RunOutcome outcome, dev.amcp.gateway.codemode.entity.PlannedWrite write) {}

    /** A live run whose first write waits for a human: reads are made and recorded, the write is only planned. */
    Paused runPausing(CodeRunRequest request) {
        ApprovalAnswers answers = pausing();
        RunOutcome outcome = run(request, answers, null);
        return new Paused(outcome, outcome.status() == RunStatus.PAUSED ? answers.planned() : null);
    }

    /** Answers that make reads live and pause the run at its next write. */
    ApprovalAnswers pausing() {
        return new ApprovalAnswers(dispatcher, catalog, schemaValidator);
    }

    /** Records a run refused before it could start (e.g. a code tool changed outside an admin's save). */
    public RunOutcome refuse(CodeRunRequest request, String reason) {
        return runOrRefuse(request, reason, dispatcher, null);
    }

    /** Answers the bridge live (tools are called), for sources that answer only part of it themselves. */
    BridgeAnswers live() {
        return dispatcher;
    }

    private RunOutcome runOrRefuse(CodeRunRequest request, String refusal, BridgeAnswers answers, String replayOf) {
        String runId = UUID.randomUUID().toString();
        try (LogContext.Scope logged = LogContext.put(LogContext.RUN_ID, runId);
             Tracing.Span span = Tracing.internal("code run").attribute("amcp.code.inline", String.valueOf(request.inline()))
                     .attribute("gen_ai.tool.name", request.toolName())) {
            RunOutcome outcome = runLogged(runId, request, refusal, answers, replayOf);
            if (outcome.status() != RunStatus.SUCCESS) {
                span.fail(outcome.status().name());
            }
            return outcome;
        }
    }

    private RunOutcome runLogged(String runId, CodeRunRequest request, String refusal, BridgeAnswers source, String replayOf) {
        var invoker = request.invoker();
        String refused = refusal != null ? refusal : connector.unavailableReason().orElse(null);
        YearMonth month = CodeRunUsage.currentMonth();
        long admittedNanos = System.nanoTime(); // the run's wall time counts from here, its admission included
        // A resumed run is recorded too: its reads and writes are what the next resume of its chain replays.
        boolean recorded = BridgeAnswers.LIVE.equals(source.kind()) || BridgeAnswers.RESUME.equals(source.kind());
        RunRecording recording = recorded ? new RunRecording(source, runSettings.values().recordMaxBytes()) : null;
        BridgeAnswers answers = recording == null ? source : recording;
        // With a slot free, the connection to the runner opens while the row is written (each took about 2 ms, one after
        // the other); the runner hears nothing until the run is admitted.
        RunSession early = refused == null && runSlots.tryAcquire() ? session(runId, request, answers, admittedNanos) : null;
        if (early != null) {
            early.connect(connector::openAsync);
        }
        CodeRunRecorder.Opened<RunOutcome> opened;
        try {
            // The row and the quota's count commit together; a refused run is not counted (G9).
            opened = recorder.begin(new CodeRunRecorder.RunIdentity(runId, invoker.workspaceId(), request.serverId(), request.toolId(),
                    request.toolName(), request.inline(), invoker.userId(), invoker.apiKeyId(), request.runAsMode(),
                    request.bridgeCaller().role().name(), Hashes.sha256(request.code()), source.kind(), replayOf),
                    () -> refused != null ? RunOutcome.refused(runId, refused) : admit(runId, request, month));
        } catch (RuntimeException | Error e) {
            abandon(early, RunStatus.ERROR, "the run's row could not be written");
            throw e;
        }
        RunOutcome outcome = null;
        try {
            if (opened.admission() != null) {
                abandon(early, opened.admission().status(), opened.admission().error());
                outcome = opened.admission();
            } else {
                outcome = runCounted(runId, request, answers, month, admittedNanos, early);
            }
        } catch (RuntimeException e) {
            if (DatabaseOutage.noted(e)) {
                LOG.log(Level.FINE, "Code run " + runId + " failed on the unreachable database", e);
                outcome = new RunOutcome(runId, RunStatus.ERROR, null, DatabaseOutage.MESSAGE, "", List.of(), 0, 0);
            } else {
                LOG.log(Level.SEVERE, "Code run " + runId + " failed inside the gateway", e);
            }
        } finally {
            // Whatever happened above (an Error included), the row is closed with a final status.
            if (outcome == null) {
                outcome = new RunOutcome(runId, RunStatus.ERROR, null, "The gateway failed to run the code (reference "
                        + runId.substring(0, 8) + ")", "", List.of(), 0, 0);
            }
            recorder.finish(opened, new CodeRunRecorder.RunEnd(outcome.status().name(), outcome.error(), outcome.traceJson(),
                    outcome.trace().size(), JsonSupport.utf8Length(request.code()) + JsonSupport.utf8Length(String.valueOf(request.input())),
                    outcome.outputBytes(), JsonSupport.utf8Length(outcome.console()), outcome.console(), request.code(),
                    recording == null || outcome.status() == RunStatus.REFUSED ? null : recording.document(request.input(), outcome.value())));
        }
        RunOutcome finished = outcome;
        LOG.fine(() -> "code run " + runId + " " + finished.status() + " in " + finished.wallMs() + " ms, "
                + finished.trace().size() + " bridge call(s)");
        return outcome;
    }

    /**
     * The license's door, inside the transaction that opens the run's row: null when the run is admitted (and counted
     * against the monthly quota), else the {@code LIMIT} outcome that ends it.
     */
    private RunOutcome admit(String runId, CodeRunRequest request, YearMonth month) {
        try {
            admission.admit(request.invoker(), month, request);
            return null;
        } catch (GateRefusedException e) {
            return new RunOutcome(runId, RunStatus.LIMIT, null, e.getMessage(), "", List.of(), 0, 0);
        }
    }

    /** A run that was connecting but will not run: its socket closes unused and its slot is free again. */
    private void abandon(RunSession early, RunStatus status, String reason) {
        if (early != null) {
            early.end(status, reason);
            runSlots.release();
        }
    }

    /** Runs an admitted run (on {@code early}'s connection and slot when it has them); one the runner refused is taken back from the quota. */
    private RunOutcome runCounted(String runId, CodeRunRequest request, BridgeAnswers answers, YearMonth month, long admittedNanos,
                                  RunSession early) {
        RunOutcome outcome = runAdmitted(runId, request, answers, admittedNanos, early);
        if (outcome.status() == RunStatus.REFUSED) {
            usage.uncount(request.invoker().workspaceId(), month); // the runner never ran it
        }
        return outcome;
    }

    /** A run's session; its bridge calls run on the gateway's own threads, carrying this request's and run's ids into their log lines. */
    private RunSession session(String runId, CodeRunRequest request, BridgeAnswers answers, long admittedNanos) {
        var logContext = LogContext.snapshot();
        Tracing.Carried trace = Tracing.capture();
        java.util.concurrent.Executor withContext = task -> bridgeThreads.execute(() -> {
            try (LogContext.Scope restored = LogContext.restore(logContext); LogContext.Scope traced = trace.restore()) {
                task.run();
            }
        });
        return new RunSession(runId, request, limits(), answers, withContext, admittedNanos);
    }

    private RunOutcome runAdmitted(String runId, CodeRunRequest request, BridgeAnswers answers, long admittedNanos, RunSession early) {
        RunSession session = early != null ? early : session(runId, request, answers, admittedNanos);
        // Registered before the slot wait, so a client that gives up cancels the run wherever it is.
        CallContext call = CallContext.current();
        String requestKey = call.requestKey();
        if (requestKey != null) {
            active.put(requestKey, session);
        }
        try {
            if (call.isCancelled()) {
                if (early != null) {
                    runSlots.release();
                }
                session.cancel(call.cancelReason());
                return session.await();
            }
            return early != null ? runHoldingSlot(session, true) : runInSlot(session);
        } finally {
            if (requestKey != null) {
                active.remove(requestKey, session);
            }
        }
    }

    /**
     * A burst must not take every request thread and pooled connection: beyond the per-node slots a run waits, but
     * only within its own wall time, and leaves the queue at once when it is cancelled; beyond as many waiting runs
     * again it ends LIMIT at once.
     */
    private RunOutcome runInSlot(RunSession session) {
        if (!runSlots.tryAcquire()) {
            if (!slotWaiters.tryAcquire()) {
                return session.end(RunStatus.LIMIT, BUSY);
            }
            RunOutcome ended;
            try {
                ended = waitForSlot(session);
            } finally {
                slotWaiters.release();
            }
            if (ended != null) {
                return ended;
            }
        }
        return runHoldingSlot(session, false);
    }

    /** Waits for a slot within the run's wall time: null once it holds one, else how the run ended meanwhile. */
    private RunOutcome waitForSlot(RunSession session) {
        try {
            while (!runSlots.tryAcquire(Math.max(0, Math.min(SLOT_POLL_MS, session.remainingMillis() - RunLimits.MIN_TIMEOUT_MS)),
                    TimeUnit.MILLISECONDS)) {
                if (session.isDone()) {
                    return session.await();
                }
                if (session.remainingMillis() <= RunLimits.MIN_TIMEOUT_MS) {
                    return session.end(RunStatus.LIMIT, NO_SLOT);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            session.cancel("interrupted while waiting for a slot");
            return session.await();
        }
        return null;
    }

    /** Runs in the slot this thread holds, on the connection already opening when {@code connecting}. */
    private RunOutcome runHoldingSlot(RunSession session, boolean connecting) {
        try {
            long connectTimeoutMs = runSettings.values().connectTimeoutMs();
            return connecting ? session.run(connectTimeoutMs) : session.run(connector::openAsync, connectTimeoutMs);
        } finally {
            runSlots.release();
        }
    }

    /** A client cancelled (or abandoned) the call that started a run on this node: the run ends now. */
    @Override
    public void cancelled(String requestKey, String reason) {
        RunSession session = requestKey == null ? null : active.get(requestKey);
        if (session != null) {
            LOG.info(() -> "Cancelling the code run of request " + requestKey + ": " + reason);
            session.cancel(reason);
        }
    }

    /** Run slots free on this node (a stuck runner must not keep them). */
    public int freeRunSlots() {
        return runSlots.availablePermits();
    }

    /** Runs waiting for a slot now (for tests). */
    int waitingForSlot() {
        return runSettings.values().maxConcurrentRuns() - slotWaiters.availablePermits();
    }
}
