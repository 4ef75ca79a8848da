package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.BridgeCall;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.CallContext;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * One code run over one WebSocket to the runner: it connects, admits and starts the run, reads the runner's frames and
 * ends the run exactly once. It enforces the run's own ceilings itself (frame size, console and result bytes, and the
 * wall clock, which runs from admission, slot wait and connecting included); its {@link RunBridge} answers the bridge
 * calls under theirs, and {@link RunnerVerdicts} words how the runner said it ended. Whatever the runner claims, or if
 * it says nothing at all, the run ends by its deadline. It is constructed on the thread of the call it serves, whose
 * {@link CallContext} receives the run's progress ({@link RunProgress}).
 */
final class RunSession extends Endpoint {

    /** How long past the run's deadline the gateway waits for the runner's own verdict. */
    static final long GRACE_MILLIS = 1_500;
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
    private final Executor executor;
    private final long admittedNanos;
    private final long deadlineNanos;

    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    private final Object sendLock = new Object();
    /** Progress for the client that asked for it; bridge calls report into it too. */
    private final RunProgress progress = new RunProgress(CallContext.current());
    private final RunBridge bridge;
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
        this.executor = executor;
        this.bridge = new RunBridge(this, request, limits, answers, executor, progress);
        this.admittedNanos = admittedNanos;
        this.deadlineNanos = admittedNanos + TimeUnit.MILLISECONDS.toNanos(limits.timeoutMs());
    }

    String runId() {
        return runId;
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
            finish(RunStatus.REFUSED, null, RunnerVerdicts.refusal(cause));
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
        if (frame instanceof RunnerFrames.Bridge call) {
            bridge.onBridge(call);
        } else if (frame instanceof RunnerFrames.Console line) {
            onConsole(line);
        } else if (frame instanceof RunnerFrames.Progress report) {
            progress.fromCode(report.done(), report.total(), report.message());
        } else if (frame instanceof RunnerFrames.Done done) {
            onDone(done);
        }
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
        RunnerVerdicts.Verdict verdict = RunnerVerdicts.of(done, limits);
        finish(verdict.status(), verdict.value(), verdict.error());
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

    /** Sends a frame to the runner while the run goes on; a failed send ends the run. */
    void send(String text) {
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
        List<BridgeCall> calls = bridge.trace();
        long wallMs = (System.nanoTime() - admittedNanos) / 1_000_000;
        long outputBytes = value == null ? 0 : JsonSupport.utf8Length(value.toString());
        if (outcome.complete(new RunOutcome(runId, status, value, error, consoleText, calls, wallMs, outputBytes))) {
            bridge.stop();
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
}
