package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.BridgeCall;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Tracing;
import dev.amcp.gateway.tools.control.CallContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The gateway's side of one run's {@code amcp} bridge: it answers the runner's bridge frames from its
 * {@link BridgeAnswers} (live, recorded or dry), several at a time, under the run's bridge ceilings (ids used once,
 * call count, concurrency, pending calls, result frame size), and keeps the trace of what was called. A breach ends
 * the run through its {@link RunSession}; when the run ends, calls in flight are interrupted and queued ones dropped.
 */
final class RunBridge {

    /** Bridge calls waiting or in flight at once; the runner refuses more itself, so more is a runner fault. */
    static final int MAX_PENDING_BRIDGE_CALLS = 64;
    /** The run's log: operators find a failed bridge call under the run it failed in. */
    private static final Logger LOG = Logger.getLogger(RunSession.class.getName());

    private final RunSession run;
    private final CodeRunRequest request;
    private final RunLimits limits;
    private final BridgeAnswers answers;
    private final Executor executor;
    private final RunProgress progress;
    /** Bridge calls run with a context that reports their tools' progress into the run's. */
    private final CallContext bridgeContext;

    private final Set<Long> seenBridgeIds = ConcurrentHashMap.newKeySet();
    private final List<BridgeCall> trace = new ArrayList<>();
    private final AtomicInteger bridgeCalls = new AtomicInteger();
    /** Guards the bridge queue, the running count and the threads answering calls. */
    private final Object bridgeLock = new Object();
    private final ArrayDeque<RunnerFrames.Bridge> waiting = new ArrayDeque<>();
    private final Set<Thread> answering = new HashSet<>();
    private int running;

    RunBridge(RunSession run, CodeRunRequest request, RunLimits limits, BridgeAnswers answers, Executor executor, RunProgress progress) {
        this.run = run;
        this.request = request;
        this.limits = limits;
        this.answers = answers;
        this.executor = executor;
        this.progress = progress;
        this.bridgeContext = new CallContext(null, progress::fromTool);
    }

    /** Runs at most the concurrency limit at once; the rest wait their turn, up to the runner's own pending cap. */
    void onBridge(RunnerFrames.Bridge bridge) {
        if (!seenBridgeIds.add(bridge.id())) {
            run.end(RunStatus.ERROR, "Runner protocol error: bridge id " + bridge.id() + " was used twice");
            return;
        }
        if (bridgeCalls.incrementAndGet() > limits.maxBridgeCalls()) {
            run.end(RunStatus.LIMIT, "The run made more than " + limits.maxBridgeCalls() + " bridge calls");
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
                run.end(RunStatus.ERROR, "The gateway has no thread free to answer bridge calls");
            }
        } else {
            run.end(RunStatus.LIMIT, "The run had more than " + MAX_PENDING_BRIDGE_CALLS + " bridge calls pending");
        }
    }

    private void answer(RunnerFrames.Bridge first) {
        RunnerFrames.Bridge bridge = first;
        while (bridge != null) {
            answerOne(bridge);
            synchronized (bridgeLock) {
                bridge = run.isDone() ? null : waiting.poll();
                if (bridge == null) {
                    running--;
                }
            }
        }
    }

    private void answerOne(RunnerFrames.Bridge bridge) {
        Thread self = Thread.currentThread();
        synchronized (bridgeLock) {
            if (run.isDone()) {
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
            LOG.log(Level.SEVERE, "Bridge call " + bridge.op() + " of run " + run.runId() + " failed", e);
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
            run.end(BridgeDispatcher.Answer.PAUSED.equals(answer.errorCode()) ? RunStatus.PAUSED : RunStatus.DIVERGED, answer.message());
            return;
        }
        String frame = answer.ok() ? RunnerFrames.bridgeOk(bridge.id(), answer.value())
                : RunnerFrames.bridgeError(bridge.id(), answer.errorCode(), answer.message());
        synchronized (trace) {
            trace.add(new BridgeCall(bridge.id(), bridge.op(), answer.tool(), answer.ok() ? "ok" : answer.errorCode(),
                    (System.nanoTime() - start) / 1_000_000, JsonSupport.utf8Length(frame)));
        }
        if (JsonSupport.utf8Length(frame) > limits.maxFrameBytes()) {
            run.end(RunStatus.LIMIT, "A result of '" + answer.tool() + "' exceeded the " + limits.maxFrameBytes() + "-byte frame limit");
            return;
        }
        if (!run.isDone()) {
            progress.bridgeCallDone(bridge.op(), answer.tool(), answer.ok()); // before the code can go on and report its own
        }
        run.send(frame);
    }

    /** The calls answered so far, in the order they ended. */
    List<BridgeCall> trace() {
        synchronized (trace) {
            return List.copyOf(trace);
        }
    }

    /** The run is decided: queued calls are dropped, and calls in flight are interrupted, aborting their upstream requests. */
    void stop() {
        bridgeContext.cancel("the code run ended");
        synchronized (bridgeLock) {
            waiting.clear();
            answering.forEach(Thread::interrupt);
        }
    }
}
