package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.BridgeCall;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.control.CallContext;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One code run over one WebSocket to the runner. It answers bridge frames from its {@link BridgeAnswers} (live, recorded or dry),
 * several at a time, and enforces every ceiling itself: frame size, bridge-call count and concurrency, console
 * and result bytes, and the wall clock, which runs from admission (slot wait and connecting included). Whatever the
 * runner claims, or if it says nothing at all, the run ends by its deadline; when it ends, bridge calls still in
 * flight are interrupted (which aborts their upstream requests) and queued ones are dropped. It is constructed on the
 * thread of the call it serves, whose {@link CallContext} receives the run's progress ({@link RunProgress}).
 */
final class RunSession extends Endpoint {

    /** How long past the run's deadline the gateway waits for the runner's own verdict. */
    static final long GRACE_MILLIS = 1_500;
    /** Bridge calls waiting or in flight at once; the runner refuses more itself, so more is a runner fault. */
    static final int MAX_PENDING_BRIDGE_CALLS = 64;
    static final String CONSOLE_TRUNCATED = "… [console output truncated at %d bytes]\n";
    private static final Logger LOG = Logger.getLogger(RunSession.class.getName());

    /** Starts opening the run's WebSocket with this session as its endpoint (the runner connector, or a test's stand-in). */
    @FunctionalInterface
    interface Connector {
        CompletableFuture<?> connect(Endpoint endpoint);
    }

    private final String runId;
    private final CodeRunRequest request;
    private final RunLimits limits;
    private final BridgeAnswers answers;
    private final Executor executor;
    private final long admittedNanos;
    private final long deadlineNanos;

    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    private final Object sendLock = new Object();
    private final Set<Long> seenBridgeIds = ConcurrentHashMap.newKeySet();
    private final List<BridgeCall> trace = new ArrayList<>();
    private final AtomicInteger bridgeCalls = new AtomicInteger();
    /** Guards the bridge queue, the running count and the threads answering calls. */
    private final Object bridgeLock = new Object();
    private final ArrayDeque<RunnerFrames.Bridge> waiting = new ArrayDeque<>();
    private final Set<Thread> answering = new HashSet<>();
    private int running;
    /** Progress for the client that asked for it; bridge calls run with a context that reports into it. */
    private final RunProgress progress = new RunProgress(CallContext.current());
    private final CallContext bridgeContext = new CallContext(null, progress::fromTool);
    private final StringBuilder console = new StringBuilder();
    private long consoleBytes;
    private boolean consoleTruncated;
    private volatile boolean opened;
    private volatile Session session;
    /** The connection being opened, once {@link #connect} has started it. */
    private CompletableFuture<?> connecting;
    /** Guards {@link #released} and {@link #started}: the start frame goes out once the socket is open and the run admitted. */
    private final Object startLock = new Object();
    private boolean released = true;
    private boolean started;
    /** An Error thrown while starting to connect, rethrown by {@link #run(long)} (inside the caller's handling of the run). */
    private Error connectError;

    /**
     * @param admittedNanos when the run was admitted ({@link System#nanoTime()}); its wall time counts from then
     */
    RunSession(String runId, CodeRunRequest request, RunLimits limits, BridgeAnswers answers, Executor executor, long admittedNanos) {
        this.runId = runId;
        this.request = request;
        this.limits = limits;
        this.answers = answers;
        this.executor = executor;
        this.admittedNanos = admittedNanos;
        this.deadlineNanos = admittedNanos + TimeUnit.MILLISECONDS.toNanos(limits.timeoutMs());
    }

    boolean isDone() {
        return outcome.isDone();
    }

    /** Milliseconds left of the run's wall time (negative once past it). */
    long remainingMillis() {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        this.session = session;
        this.opened = true;
        startIfReady();
    }

    /**
     * Sends the start frame once both have happened: the socket is open and the run is admitted ({@link #run}). A
     * connection may open while the run's row is still being written; the runner hears nothing until the run is
     * admitted, and a run refused meanwhile closes the socket without starting.
     */
    private void startIfReady() {
        Session s;
        synchronized (startLock) {
            s = session;
            if (s == null || started || (!released && !outcome.isDone())) {
                return;
            }
            started = true;
        }
        if (outcome.isDone()) { // refused or cancelled while connecting: the runner must not start it
            RunnerConnector.closeQuietly(s);
            return;
        }
        s.setMaxTextMessageBufferSize(limits.maxFrameBytes());
        s.addMessageHandler(String.class, (MessageHandler.Whole<String>) this::onFrame);
        // The runner gets what is left of the wall time, so its own timeout falls inside the gateway's deadline.
        send(RunnerFrames.start(runId, request.code(), request.input(), limits.withTimeoutMs((int) Math.max(RunLimits.MIN_TIMEOUT_MS, remainingMillis()))));
    }

    /**
     * Starts opening the run's WebSocket without starting the run: {@link #run(long)} admits it later. Opening takes
     * longer than writing the run's row, so the two overlap.
     */
    void connect(Connector connector) {
        synchronized (startLock) {
            released = false;
        }
        try {
            connecting = connector.connect(this);
        } catch (RuntimeException e) {
            connecting = CompletableFuture.failedFuture(e);
        } catch (Error e) {
            connectError = e;
            connecting = CompletableFuture.failedFuture(e);
        }
    }

    /** Connects, admits and runs: {@link #connect} then {@link #run(long)}. */
    RunOutcome run(Connector connector, long connectTimeoutMs) {
        connect(connector);
        return run(connectTimeoutMs);
    }

    /**
     * Admits the run on the connection {@link #connect} started, waiting for it at most {@code connectTimeoutMs} and
     * never past the deadline, then waits for the run to end. A runner that does not accept the connection in time
     * refuses the run; one that then says nothing is ended by the deadline.
     */
    RunOutcome run(long connectTimeoutMs) {
        if (connectError != null) {
            throw connectError;
        }
        CompletableFuture<?> connected = connecting;
        synchronized (startLock) {
            released = true;
        }
        startIfReady();
        long waitMs = Math.max(0, Math.min(connectTimeoutMs, remainingMillis()));
        try {
            CompletableFuture.anyOf(connected, outcome).get(waitMs, TimeUnit.MILLISECONDS);
            if (connected.isCompletedExceptionally()) {
                connected.join();
            }
        } catch (TimeoutException e) {
            LOG.warning(() -> "Code run " + runId + " refused: the runner did not accept the connection within " + waitMs + " ms");
            finish(RunStatus.REFUSED, null, "The code runner did not accept the connection within " + waitMs
                    + " ms (" + CodeRunSettings.CONNECT_TIMEOUT + "); the run was refused. Code never runs inside the gateway.");
        } catch (java.util.concurrent.CompletionException | ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            LOG.warning(() -> "Code run " + runId + " refused: the runner did not accept the connection: " + cause);
            finish(RunStatus.REFUSED, null, refusal(cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel("the request thread was interrupted");
        }
        return await();
    }

    /** Waits for the run to end; past the deadline plus grace the gateway ends it itself. */
    RunOutcome await() {
        try {
            long waitMs = Math.max(0, remainingMillis() + GRACE_MILLIS);
            return outcome.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            send(RunnerFrames.cancel());
            finish(RunStatus.ERROR, null, "The code runner did not end the run within its wall time of " + limits.timeoutMs()
                    + " ms; the gateway ended it (the runner may be stuck or overloaded)");
            return outcome.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel("the request thread was interrupted");
            return outcome.join();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * The client gave up: the run ends now as CANCELLED, whether or not the runner ever answers, and the runner is
     * asked to stop.
     */
    void cancel(String reason) {
        send(RunnerFrames.cancel());
        finish(RunStatus.CANCELLED, null, "The run was cancelled" + (reason == null || reason.isBlank() ? "" : ": " + reason));
    }

    /** Ends the run with this status unless it already ended, and returns how it ended. */
    RunOutcome end(RunStatus status, String error) {
        finish(status, null, error);
        return outcome.join();
    }

    void onFrame(String text) {
        if (outcome.isDone()) {
            return;
        }
        if (JsonSupport.utf8Length(text) > limits.maxFrameBytes()) {
            finish(RunStatus.LIMIT, null, "A runner frame exceeded " + limits.maxFrameBytes() + " bytes");
            return;
        }
        RunnerFrames.Inbound frame;
        try {
            frame = RunnerFrames.parse(text);
        } catch (RunnerFrames.ProtocolViolation e) {
            finish(RunStatus.ERROR, null, "Runner protocol error: " + e.getMessage());
            return;
        }
        if (frame instanceof RunnerFrames.Bridge bridge) {
            onBridge(bridge);
        } else if (frame instanceof RunnerFrames.Console line) {
            onConsole(line);
        } else if (frame instanceof RunnerFrames.Progress report) {
            progress.fromCode(report.done(), report.total(), report.message());
        } else if (frame instanceof RunnerFrames.Done done) {
            onDone(done);
        }
    }

    /** Runs at most the concurrency limit at once; the rest wait their turn, up to the runner's own pending cap. */
    private void onBridge(RunnerFrames.Bridge bridge) {
        if (!seenBridgeIds.add(bridge.id())) {
            finish(RunStatus.ERROR, null, "Runner protocol error: bridge id " + bridge.id() + " was used twice");
            return;
        }
        if (bridgeCalls.incrementAndGet() > limits.maxBridgeCalls()) {
            finish(RunStatus.LIMIT, null, "The run made more than " + limits.maxBridgeCalls() + " bridge calls");
            return;
        }
        boolean startNow;
        synchronized (bridgeLock) {
            if (running + waiting.size() >= MAX_PENDING_BRIDGE_CALLS) {
                startNow = false;
                waiting.clear();
            } else if (running < limits.maxConcurrentBridgeCalls()) {
                running++;
                startNow = true;
            } else {
                waiting.add(bridge);
                return;
            }
        }
        if (startNow) {
            try {
                executor.execute(() -> answer(bridge));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                finish(RunStatus.ERROR, null, "The gateway has no thread free to answer bridge calls");
            }
        } else {
            finish(RunStatus.LIMIT, null, "The run had more than " + MAX_PENDING_BRIDGE_CALLS + " bridge calls pending");
        }
    }

    private void answer(RunnerFrames.Bridge first) {
        RunnerFrames.Bridge bridge = first;
        while (bridge != null) {
            answerOne(bridge);
            synchronized (bridgeLock) {
                bridge = outcome.isDone() ? null : waiting.poll();
                if (bridge == null) {
                    running--;
                }
            }
        }
    }

    private void answerOne(RunnerFrames.Bridge bridge) {
        Thread self = Thread.currentThread();
        synchronized (bridgeLock) {
            if (outcome.isDone()) {
                return;
            }
            answering.add(self);
        }
        long start = System.nanoTime();
        BridgeDispatcher.Answer answer;
        try (Tracing.Span span = Tracing.internal("bridge " + bridge.op()).attribute("amcp.bridge.op", bridge.op())) {
            answer = bridgeContext.run(() -> answers.answer(request.bridgeCaller(), bridge.op(), bridge.args()));
            if (!answer.ok()) {
                span.fail(answer.errorCode());
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Bridge call " + bridge.op() + " of run " + runId + " failed", e);
            answer = new BridgeDispatcher.Answer(false, null, "internal", "The gateway failed to answer this call", null);
        } finally {
            synchronized (bridgeLock) {
                answering.remove(self);
                Thread.interrupted(); // an interrupt meant for this call must not reach the pool thread's next task
            }
        }
        if (answer.endsRun()) { // a replay that left its recording, or a write to approve: no answer, the run ends here
            synchronized (trace) {
                trace.add(new BridgeCall(bridge.id(), bridge.op(), answer.tool(), answer.errorCode(), (System.nanoTime() - start) / 1_000_000, 0));
            }
            finish(BridgeDispatcher.Answer.PAUSED.equals(answer.errorCode()) ? RunStatus.PAUSED : RunStatus.DIVERGED, null, answer.message());
            return;
        }
        String frame = answer.ok() ? RunnerFrames.bridgeOk(bridge.id(), answer.value())
                : RunnerFrames.bridgeError(bridge.id(), answer.errorCode(), answer.message());
        synchronized (trace) {
            trace.add(new BridgeCall(bridge.id(), bridge.op(), answer.tool(), answer.ok() ? "ok" : answer.errorCode(),
                    (System.nanoTime() - start) / 1_000_000, JsonSupport.utf8Length(frame)));
        }
        if (JsonSupport.utf8Length(frame) > limits.maxFrameBytes()) {
            finish(RunStatus.LIMIT, null, "A result of '" + answer.tool() + "' exceeded the " + limits.maxFrameBytes() + "-byte frame limit");
            return;
        }
        if (!outcome.isDone()) {
            progress.bridgeCallDone(bridge.op(), answer.tool(), answer.ok()); // before the code can go on and report its own
        }
        send(frame);
    }

    /** Console output past the cap is dropped behind one marker; the run goes on. */
    private void onConsole(RunnerFrames.Console line) {
        synchronized (console) {
            if (consoleTruncated) {
                return;
            }
            String text = (line.level().equals("log") ? "" : "[" + line.level() + "] ") + line.text() + "\n";
            int bytes = JsonSupport.utf8Length(text);
            if (consoleBytes + bytes > limits.maxConsoleBytes()) {
                consoleTruncated = true;
                console.append(String.format(CONSOLE_TRUNCATED, limits.maxConsoleBytes()));
            } else {
                consoleBytes += bytes;
                console.append(text);
            }
        }
    }

    private void onDone(RunnerFrames.Done done) {
        switch (done.status()) {
            case "ok" -> {
                JsonValue value = done.value() == null ? JsonValue.NULL : done.value();
                int bytes = JsonSupport.utf8Length(value.toString());
                if (bytes > limits.maxResultBytes()) {
                    finish(RunStatus.LIMIT, null, "The result was " + bytes + " bytes; the limit is " + limits.maxResultBytes());
                } else {
                    finish(RunStatus.SUCCESS, value, null);
                }
            }
            case "error" -> {
                if (runnerWasBusy(done.error())) {
                    finish(RunStatus.REFUSED, null, "The code runner is busy (its queue is full); the run was refused, try again shortly");
                } else {
                    finish(breachedRunnerLimit(done.error()) ? RunStatus.LIMIT : RunStatus.ERROR, null, describeError(done.error()));
                }
            }
            case "limit" -> finish(RunStatus.LIMIT, null, "The code runner stopped the run at one of its limits: "
                    + (done.error() == null ? "no detail given" : JsonSupport.string(done.error(), "message", "no detail given")));
            case "timeout" -> finish(RunStatus.TIMEOUT, null, "The run exceeded its timeout of " + limits.timeoutMs() + " ms");
            case "memory" -> finish(RunStatus.LIMIT, null, "The run exceeded its memory limit of " + limits.memoryMb() + " MB");
            case "cancelled" -> finish(RunStatus.CANCELLED, null, "The run was cancelled");
            default -> finish(RunStatus.ERROR, null, "The runner ended the run with a protocol error"
                    + (done.error() == null ? "" : ": " + JsonSupport.string(done.error(), "message", "")));
        }
    }

    /** The runner's queue was full, so the code never ran: refused, not failed, and not counted against quota. */
    static boolean runnerWasBusy(JsonObject error) {
        return error != null && "BusyError".equals(JsonSupport.string(error, "name", ""));
    }

    /** The runner refused to go past a ceiling the gateway set (result size, bridge budget): that is a LIMIT. */
    static boolean breachedRunnerLimit(JsonObject error) {
        String name = error == null ? "" : JsonSupport.string(error, "name", "");
        String message = error == null ? "" : JsonSupport.string(error, "message", "");
        return "OutputLimitError".equals(name) || ("AmcpError".equals(name) && message.startsWith("bridge call budget exhausted"));
    }

    static String describeError(JsonObject error) {
        if (error == null) {
            return "The code failed";
        }
        String name = JsonSupport.string(error, "name", "Error");
        String message = JsonSupport.string(error, "message", "");
        String stack = JsonSupport.string(error, "stack", "");
        String head = name + ": " + message;
        if (stack.isBlank()) {
            return head;
        }
        String[] lines = stack.split("\n");
        StringBuilder b = new StringBuilder(head);
        for (int i = 0; i < Math.min(lines.length, 8); i++) {
            if (!lines[i].strip().equals(head.strip())) {
                b.append('\n').append(lines[i]);
            }
        }
        return b.toString();
    }

    /** Why the runner did not accept the connection, in words: a rejected token is told apart from an absent runner. */
    static String refusal(Throwable e) {
        String detail = String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
        if (detail.contains("401") || detail.contains("403")) {
            return "The code runner rejected the gateway's credentials (check CODE_RUNNER_TOKEN); the run was refused";
        }
        return "The code runner is unreachable; the run was refused. Code never runs inside the gateway.";
    }

    @Override
    public void onClose(Session session, CloseReason reason) {
        if (reason.getCloseCode() == CloseReason.CloseCodes.TOO_BIG) {
            finish(RunStatus.LIMIT, null, "A runner frame exceeded " + limits.maxFrameBytes() + " bytes");
        } else {
            finish(RunStatus.ERROR, null, "The code runner closed the connection before the run finished");
        }
    }

    @Override
    public void onError(Session session, Throwable error) {
        if (opened) { // a failed connect is reported by the opener, as a refusal
            finish(RunStatus.ERROR, null, "The connection to the code runner failed (" + error.getClass().getSimpleName() + ")");
        }
    }

    private void send(String text) {
        synchronized (sendLock) {
            Session s = session;
            if (s == null || !s.isOpen() || outcome.isDone()) {
                return;
            }
            try {
                s.getBasicRemote().sendText(text);
            } catch (IOException | IllegalStateException e) {
                finish(RunStatus.ERROR, null, "Lost the connection to the code runner");
            }
        }
    }

    private void finish(RunStatus status, JsonValue value, String error) {
        String consoleText;
        synchronized (console) {
            consoleText = console.toString();
        }
        List<BridgeCall> calls;
        synchronized (trace) {
            calls = List.copyOf(trace);
        }
        long wallMs = (System.nanoTime() - admittedNanos) / 1_000_000;
        long outputBytes = value == null ? 0 : JsonSupport.utf8Length(value.toString());
        if (outcome.complete(new RunOutcome(runId, status, value, error, consoleText, calls, wallMs, outputBytes))) {
            stopBridgeCalls();
            Session s = session;
            if (s != null) {
                // Off this thread: closing towards a runner that stopped reading must not hold up the answer.
                try {
                    executor.execute(() -> RunnerConnector.closeQuietly(s));
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    RunnerConnector.closeQuietly(s); // no thread free (the gateway is shutting down): close here rather than leak the socket
                }
            }
        }
    }

    /** The run is decided: queued calls are dropped, and calls in flight are interrupted, aborting their upstream requests. */
    private void stopBridgeCalls() {
        bridgeContext.cancel("the code run ended");
        synchronized (bridgeLock) {
            waiting.clear();
            answering.forEach(Thread::interrupt);
        }
    }
}
