package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.BridgeCall;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.util.ArrayList;
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
 * One code run over one WebSocket to the runner. It answers bridge frames through the {@link BridgeDispatcher},
 * several at a time, and enforces every ceiling itself: frame size, bridge-call count and concurrency, console
 * and result bytes, and the wall clock. Whatever the runner claims, the first ceiling breached ends the run.
 */
final class RunSession extends Endpoint {

    /** How long past the run's timeout the gateway waits for the runner's own verdict. */
    static final long GRACE_MILLIS = 1_500;
    private static final Logger LOG = Logger.getLogger(RunSession.class.getName());

    private final String runId;
    private final CodeRunRequest request;
    private final RunLimits limits;
    private final BridgeDispatcher dispatcher;
    private final Executor executor;
    private final long startNanos = System.nanoTime();

    private final CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    private final Object sendLock = new Object();
    private final Set<Long> seenBridgeIds = ConcurrentHashMap.newKeySet();
    private final List<BridgeCall> trace = new ArrayList<>();
    private final AtomicInteger bridgeCalls = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final StringBuilder console = new StringBuilder();
    private long consoleBytes;
    private volatile Session session;

    RunSession(String runId, CodeRunRequest request, RunLimits limits, BridgeDispatcher dispatcher, Executor executor) {
        this.runId = runId;
        this.request = request;
        this.limits = limits;
        this.dispatcher = dispatcher;
        this.executor = executor;
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        this.session = session;
        session.setMaxTextMessageBufferSize(limits.maxFrameBytes());
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) this::onFrame);
        send(RunnerFrames.start(runId, request.code(), request.input(), limits));
    }

    /** Waits for the run to end; past the wall time plus grace the gateway ends it itself. */
    RunOutcome await() {
        try {
            return outcome.get(limits.timeoutMs() + GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            send(RunnerFrames.cancel());
            finish(RunStatus.LIMIT, null, "The run exceeded its wall time of " + limits.timeoutMs() + " ms");
            return outcome.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            finish(RunStatus.CANCELLED, null, "The run was cancelled");
            return outcome.join();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Asks the runner to stop; the run ends when the runner confirms, or at the wall time. */
    void cancel() {
        send(RunnerFrames.cancel());
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
        } else if (frame instanceof RunnerFrames.Done done) {
            onDone(done);
        }
    }

    private void onBridge(RunnerFrames.Bridge bridge) {
        if (!seenBridgeIds.add(bridge.id())) {
            finish(RunStatus.ERROR, null, "Runner protocol error: bridge id " + bridge.id() + " was used twice");
        } else if (bridgeCalls.incrementAndGet() > limits.maxBridgeCalls()) {
            finish(RunStatus.LIMIT, null, "The run made more than " + limits.maxBridgeCalls() + " bridge calls");
        } else if (inFlight.incrementAndGet() > limits.maxConcurrentBridgeCalls()) {
            finish(RunStatus.LIMIT, null, "The run had more than " + limits.maxConcurrentBridgeCalls() + " bridge calls in flight");
        } else {
            executor.execute(() -> answer(bridge));
        }
    }

    private void answer(RunnerFrames.Bridge bridge) {
        long start = System.nanoTime();
        BridgeDispatcher.Answer answer;
        try {
            answer = dispatcher.handle(request.bridgeCaller(), bridge.op(), bridge.args());
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "Bridge call " + bridge.op() + " of run " + runId + " failed", e);
            answer = new BridgeDispatcher.Answer(false, null, "internal", "The gateway failed to answer this call", null);
        }
        inFlight.decrementAndGet();
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
        send(frame);
    }

    private void onConsole(RunnerFrames.Console line) {
        boolean over;
        synchronized (console) {
            String text = (line.level().equals("log") ? "" : "[" + line.level() + "] ") + line.text() + "\n";
            consoleBytes += JsonSupport.utf8Length(text);
            over = consoleBytes > limits.maxConsoleBytes();
            if (!over) {
                console.append(text);
            }
        }
        if (over) {
            finish(RunStatus.LIMIT, null, "Console output exceeded " + limits.maxConsoleBytes() + " bytes");
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
            case "error" -> finish(breachedRunnerLimit(done.error()) ? RunStatus.LIMIT : RunStatus.ERROR, null, describeError(done.error()));
            case "timeout" -> finish(RunStatus.TIMEOUT, null, "The run exceeded its timeout of " + limits.timeoutMs() + " ms");
            case "memory" -> finish(RunStatus.LIMIT, null, "The run exceeded its memory limit of " + limits.memoryMb() + " MB");
            case "cancelled" -> finish(RunStatus.CANCELLED, null, "The run was cancelled");
            default -> finish(RunStatus.ERROR, null, "The runner ended the run with a protocol error"
                    + (done.error() == null ? "" : ": " + JsonSupport.string(done.error(), "message", "")));
        }
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
        finish(RunStatus.ERROR, null, "The connection to the code runner failed (" + error.getClass().getSimpleName() + ")");
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
        long wallMs = (System.nanoTime() - startNanos) / 1_000_000;
        long outputBytes = value == null ? 0 : JsonSupport.utf8Length(value.toString());
        if (outcome.complete(new RunOutcome(runId, status, value, error, consoleText, calls, wallMs, outputBytes))) {
            Session s = session;
            if (s != null && s.isOpen()) {
                try {
                    s.close();
                } catch (IOException | IllegalStateException ignored) {
                    // the run is decided; a failed close changes nothing
                }
            }
        }
    }
}
