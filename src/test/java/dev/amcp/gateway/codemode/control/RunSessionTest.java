package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.CallContext;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway's own ceilings, enforced by {@link RunSession} whatever the runner claims. The runner side is
 * played by feeding frames; the socket is a stand-in that records what the gateway sends. Every ceiling test uses a
 * wall time of a minute, so only the ceiling itself can end the run in time, and asserts the reason.
 */
class RunSessionTest {

    /** 60 s wall time: a run these tests see end did not end by the clock. */
    static final RunLimits LIMITS = new RunLimits(60_000, 64, 3, 2, 4096, 100, 50);
    static final Caller CALLER = new Caller(1, 1L, 1L, "u", new RoleGrant(1, "viewer", Set.of(), true, Set.of()), CallScope.server(1));
    static final String DONE_OK = "{\"type\":\"done\",\"status\":\"ok\",\"value\":{\"n\":1},\"stats\":{}}";

    final List<String> sent = new CopyOnWriteArrayList<>();
    final AtomicBoolean socketClosed = new AtomicBoolean();
    final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    /** A dispatcher that answers every call at once with {"ok":1}. */
    static class Answering extends BridgeDispatcher {
        @Override
        public Answer handle(Caller caller, String op, JsonObject args) {
            return new Answer(true, Json.createObjectBuilder().add("ok", 1).build(), null, null, "t");
        }
    }

    static CodeRunRequest request() {
        return new CodeRunRequest(CALLER, CALLER, "return 1", JsonValue.NULL, true, 1L, null, "code_execute", "invoker");
    }

    RunSession session(RunLimits limits, BridgeDispatcher dispatcher, java.util.concurrent.Executor executor) {
        return new RunSession("run-1", request(), limits, dispatcher, executor, System.nanoTime());
    }

    RunSession open(BridgeDispatcher dispatcher) {
        return open(LIMITS, dispatcher, Runnable::run);
    }

    RunSession open(RunLimits limits, BridgeDispatcher dispatcher, java.util.concurrent.Executor executor) {
        RunSession session = session(limits, dispatcher, executor);
        session.onOpen(socket(), null);
        return session;
    }

    Session socket() {
        RemoteEndpoint.Basic remote = (RemoteEndpoint.Basic) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{RemoteEndpoint.Basic.class}, (p, m, a) -> {
                    if (m.getName().equals("sendText")) {
                        sent.add((String) a[0]);
                    }
                    return null;
                });
        return (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Session.class}, (p, m, a) ->
                switch (m.getName()) {
                    case "getBasicRemote" -> remote;
                    case "isOpen" -> !socketClosed.get();
                    case "close" -> {
                        socketClosed.set(true);
                        yield null;
                    }
                    default -> null;
                });
    }

    static String bridge(long id) {
        return "{\"type\":\"bridge\",\"id\":" + id + ",\"op\":\"search\",\"args\":{}}";
    }

    long answers() {
        return sent.stream().filter(s -> s.contains("\"bridge_result\"")).count();
    }

    static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void sendsStartThenAnswersBridgeCallsAndSucceeds() {
        RunSession session = open(new Answering());
        JsonObject start = JsonSupport.parseObject(sent.get(0));
        assertEquals("start", start.getString("type"));
        assertTrue(start.getJsonObject("limits").getInt("timeoutMs") <= 60_000);
        session.onFrame(bridge(1));
        var answer = JsonSupport.parseObject(sent.get(1));
        assertEquals("bridge_result", answer.getString("type"));
        assertEquals(1, answer.getInt("id"));
        session.onFrame(DONE_OK);
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.SUCCESS, outcome.status());
        assertEquals(1, outcome.trace().size());
    }

    @Test
    void progressGoesToTheCallThatStartedTheRunInOrderWithNestedToolsProgress() throws InterruptedException {
        List<String> seen = new CopyOnWriteArrayList<>();
        CallContext client = new CallContext("k", (p, total, message) -> seen.add(p + " " + message));
        BridgeDispatcher reporting = new BridgeDispatcher() {
            @Override
            public Answer handle(Caller caller, String op, JsonObject args) {
                // a tool that reports its own progress, on the bridge thread
                CallContext.current().progress(1, 2.0, "half of " + args.getString("name"));
                return new Answer(true, JsonValue.TRUE, null, null, args.getString("name"));
            }
        };
        RunSession session = client.run(() -> open(LIMITS, reporting, pool));
        session.onFrame("{\"type\":\"bridge\",\"id\":1,\"op\":\"run\",\"args\":{\"name\":\"customer_get\"}}");
        waitFor(() -> answers() == 1, "the first answer");
        session.onFrame("{\"type\":\"progress\",\"done\":5,\"total\":9,\"message\":\"from code\"}");
        session.onFrame(DONE_OK);
        assertEquals(RunStatus.SUCCESS, session.await().status());
        assertEquals(List.of("0.5 half of customer_get", "1.0 customer_get done", "5.0 from code"), seen);
    }

    @Test
    void theBridgeCallBudgetHoldsWhateverTheRunnerSays() {
        RunSession session = open(new Answering());
        for (int id = 1; id <= 4; id++) {
            session.onFrame(bridge(id));
        }
        assertTrue(session.isDone(), "the fourth call ends the run at once");
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(outcome.error().contains("more than 3 bridge calls"), outcome.error());
        assertEquals(4, sent.size(), "start plus three answers; the fourth call is never answered");
    }

    /** Answers after {@code release} opens, counting how many calls are inside it at once. */
    static class Gate extends BridgeDispatcher {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicInteger started = new AtomicInteger();

        @Override
        public Answer handle(Caller caller, String op, JsonObject args) {
            started.incrementAndGet();
            peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                inside.decrementAndGet();
            }
            return new Answer(true, JsonValue.TRUE, null, null, "t");
        }
    }

    @Test
    void concurrentBridgeCallsAreCappedAndTheRestWaitTheirTurn() throws Exception {
        Gate gate = new Gate();
        RunLimits limits = new RunLimits(60_000, 64, 50, 2, 4096, 100, 50);
        RunSession session = open(limits, gate, pool);
        for (int id = 1; id <= 6; id++) {
            session.onFrame(bridge(id));
        }
        waitFor(() -> gate.inside.get() == 2, "two calls in flight");
        Thread.sleep(200);
        assertEquals(2, gate.peak.get(), "never more than maxConcurrentBridgeCalls at once");
        assertFalse(session.isDone(), "calls past the concurrency limit wait; they do not end the run");
        gate.release.countDown();
        waitFor(() -> answers() == 6, "all six answers");
        assertEquals(2, gate.peak.get());
        session.onFrame(DONE_OK);
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.SUCCESS, outcome.status());
        assertEquals(6, outcome.trace().size());
    }

    @Test
    void moreBridgeCallsPendingThanTheRunnerAllowsEndTheRun() {
        Gate gate = new Gate();
        RunLimits limits = new RunLimits(60_000, 64, 500, 2, 4096, 100, 50);
        RunSession session = open(limits, gate, pool);
        for (int id = 1; id <= RunBridge.MAX_PENDING_BRIDGE_CALLS + 1; id++) {
            session.onFrame(bridge(id));
        }
        assertTrue(session.isDone());
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertEquals("The run had more than 64 bridge calls pending", outcome.error());
        gate.release.countDown();
    }

    @Test
    void bridgeCallsStillInFlightAreInterruptedAndQueuedOnesDroppedWhenTheRunEnds() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(2);
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger sawCancelledContext = new AtomicInteger();
        BridgeDispatcher slow = new BridgeDispatcher() {
            @Override
            public Answer handle(Caller caller, String op, JsonObject args) {
                calls.incrementAndGet();
                try {
                    Thread.sleep(60_000); // an upstream that never answers
                } catch (InterruptedException e) {
                    if (CallContext.current().isCancelled()) {
                        sawCancelledContext.incrementAndGet();
                    }
                    interrupted.countDown();
                }
                return new Answer(true, JsonValue.TRUE, null, null, "t");
            }
        };
        RunSession session = open(LIMITS, slow, pool);
        session.onFrame(bridge(1));
        session.onFrame(bridge(2));
        session.onFrame(bridge(3)); // waits: two are in flight
        waitFor(() -> calls.get() == 2, "two calls in flight");
        session.onFrame(DONE_OK);
        assertEquals(RunStatus.SUCCESS, session.await().status());
        assertTrue(interrupted.await(2, TimeUnit.SECONDS), "the calls in flight were interrupted when the run ended");
        assertEquals(2, sawCancelledContext.get(), "their call context says the run ended");
        Thread.sleep(200);
        assertEquals(2, calls.get(), "the queued call never started");
        assertEquals(0, answers(), "nothing is sent on a finished run");
    }

    @Test
    void reusedBridgeIdsAreAProtocolError() {
        RunSession session = open(new Answering());
        session.onFrame(bridge(1));
        session.onFrame(bridge(1));
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.ERROR, outcome.status());
        assertTrue(outcome.error().contains("used twice"));
    }

    @Test
    void consoleOutputPastItsCapIsTruncatedWithAMarkerAndTheRunStillSucceeds() {
        RunSession chatty = open(new Answering());
        chatty.onFrame("{\"type\":\"console\",\"level\":\"log\",\"text\":\"" + "a".repeat(30) + "\"}");
        chatty.onFrame("{\"type\":\"console\",\"level\":\"log\",\"text\":\"" + "b".repeat(30) + "\"}");
        chatty.onFrame("{\"type\":\"console\",\"level\":\"log\",\"text\":\"c\"}");
        assertFalse(chatty.isDone(), "too much console output does not end the run");
        chatty.onFrame(DONE_OK);
        RunOutcome outcome = chatty.await();
        assertEquals(RunStatus.SUCCESS, outcome.status());
        assertEquals("a".repeat(30) + "\n" + String.format(RunSession.CONSOLE_TRUNCATED, 50), outcome.console());
    }

    @Test
    void resultBytesAreCapped() {
        RunSession big = open(new Answering());
        big.onFrame("{\"type\":\"done\",\"status\":\"ok\",\"value\":\"" + "y".repeat(200) + "\",\"stats\":{}}");
        RunOutcome outcome = big.await();
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(outcome.error().contains("the limit is 100"), outcome.error());
    }

    @Test
    void oversizeAndMalformedFramesEndTheRun() {
        RunSession huge = open(new Answering());
        huge.onFrame("{\"type\":\"console\",\"text\":\"" + "z".repeat(5000) + "\"}");
        assertTrue(huge.isDone(), "an oversize frame ends the run at once");
        RunOutcome outcome = huge.await();
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertEquals("A runner frame exceeded 4096 bytes", outcome.error());
        RunSession garbage = open(new Answering());
        garbage.onFrame("{not json");
        assertTrue(garbage.isDone());
        assertEquals(RunStatus.ERROR, garbage.await().status());
    }

    @Test
    void runnerReportedStatusesMapToAuditStatuses() {
        String[][] cases = {{"timeout", "TIMEOUT"}, {"memory", "LIMIT"}, {"cancelled", "CANCELLED"}, {"protocol_error", "ERROR"}};
        for (String[] c : cases) {
            RunSession session = open(new Answering());
            session.onFrame("{\"type\":\"done\",\"status\":\"" + c[0] + "\",\"stats\":{}}");
            assertEquals(RunStatus.valueOf(c[1]), session.await().status(), c[0]);
        }
        RunSession overBudget = open(new Answering());
        overBudget.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"OutputLimitError\",\"message\":\"too big\"},\"stats\":{}}");
        assertEquals(RunStatus.LIMIT, overBudget.await().status());
        RunSession failed = open(new Answering());
        failed.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"TypeError\",\"message\":\"x is not a function\",\"stack\":\"TypeError: x is not a function\\n    at <anonymous>:1:1\"},\"stats\":{}}");
        RunOutcome outcome = failed.await();
        assertEquals(RunStatus.ERROR, outcome.status());
        assertEquals("TypeError: x is not a function\n    at <anonymous>:1:1", outcome.error());
    }

    @Test
    void theRunnersLimitStatusIsALimit() {
        RunSession session = open(new Answering());
        session.onFrame("{\"type\":\"done\",\"status\":\"limit\",\"error\":{\"name\":\"LimitError\",\"message\":\"more than 1000 refused bridge lines\"},\"stats\":{}}");
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(outcome.error().endsWith("more than 1000 refused bridge lines"), outcome.error());
    }

    @Test
    void aBusyRunnerRefusesTheRun() {
        RunSession session = open(new Answering());
        session.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"BusyError\",\"code\":\"busy\",\"message\":\"queue full\"},\"stats\":{}}");
        RunOutcome outcome = session.await();
        assertEquals(RunStatus.REFUSED, outcome.status());
        assertTrue(outcome.error().contains("busy"), outcome.error());
    }

    @Test
    void theWallClockEndsARunTheRunnerForgot() {
        RunSession session = open(new RunLimits(100, 64, 3, 2, 4096, 100, 50), new Answering(), Runnable::run);
        long start = System.nanoTime();
        RunOutcome outcome = session.await();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(RunStatus.ERROR, outcome.status());
        assertTrue(outcome.error().contains("did not end the run within its wall time of 100 ms"), outcome.error());
        assertTrue(ms >= 100 && ms < 100 + RunSession.GRACE_MILLIS + 1000, ms + " ms");
    }

    @Test
    void theWallClockRunsFromAdmissionAndTheRunnerGetsWhatIsLeft() {
        long admitted = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1500); // e.g. waited for a slot
        RunSession session = new RunSession("run-1", request(), new RunLimits(2000, 64, 3, 2, 4096, 100, 50), new Answering(),
                Runnable::run, admitted);
        session.onOpen(socket(), null);
        int runnerTimeout = JsonSupport.parseObject(sent.get(0)).getJsonObject("limits").getInt("timeoutMs");
        assertTrue(runnerTimeout <= 500, "the runner gets only what is left: " + runnerTimeout);
        long start = System.nanoTime();
        RunOutcome outcome = session.await();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(RunStatus.ERROR, outcome.status());
        assertTrue(ms < 500 + RunSession.GRACE_MILLIS + 500, "ended " + ms + " ms after the runner got it");
        assertTrue(outcome.wallMs() >= 2000, "wall time counts from admission: " + outcome.wallMs());
    }

    /** A runner that accepted TCP but never answers the upgrade: the connect waits until {@code never} opens. */
    RunSession.Connector neverAnswers(CountDownLatch never) {
        return endpoint -> CompletableFuture.runAsync(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, pool);
    }

    @Test
    void aRunnerThatNeverAcceptsTheConnectionRefusesTheRunWithinTheConnectTimeout() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        RunSession session = session(LIMITS, new Answering(), pool);
        long start = System.nanoTime();
        RunOutcome outcome = session.run(neverAnswers(never), 300);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(RunStatus.REFUSED, outcome.status());
        assertTrue(outcome.error().contains("did not accept the connection within 300 ms"), outcome.error());
        assertTrue(outcome.error().contains(CodeRunSettings.CONNECT_TIMEOUT), outcome.error());
        assertTrue(ms < 1500, ms + " ms");
        session.onOpen(socket(), null); // the connection comes through late
        assertTrue(sent.isEmpty(), "a refused run is never started");
        waitFor(socketClosed::get, "the late connection to be closed");
        never.countDown();
    }

    @Test
    void aConnectionFailureIsARefusalThatSaysWhy() {
        RunOutcome badToken = session(LIMITS, new Answering(), pool)
                .run(endpoint -> CompletableFuture.failedFuture(new DeploymentException("Unexpected response status 401")), 3000);
        assertEquals(RunStatus.REFUSED, badToken.status());
        assertTrue(badToken.error().contains("rejected the gateway's credentials"), badToken.error());
        RunOutcome absent = session(LIMITS, new Answering(), pool)
                .run(endpoint -> CompletableFuture.failedFuture(new java.net.ConnectException("Connection refused")), 3000);
        assertEquals(RunStatus.REFUSED, absent.status());
        assertTrue(absent.error().contains("unreachable"), absent.error());
    }

    @Test
    void aCancelledRunEndsAtOnceEvenIfTheRunnerNeverAnswers() throws Exception {
        RunSession connected = open(LIMITS, new Answering(), pool);
        long start = System.nanoTime();
        connected.cancel("client went away");
        RunOutcome outcome = connected.await();
        assertEquals(RunStatus.CANCELLED, outcome.status());
        assertEquals("The run was cancelled: client went away", outcome.error());
        assertTrue(sent.stream().anyMatch(s -> s.contains("\"cancel\"")), "the runner is asked to stop");
        assertTrue((System.nanoTime() - start) / 1_000_000 < 500);

        RunSession connecting = session(LIMITS, new Answering(), pool);
        CountDownLatch never = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException ignored) {
                return;
            }
            connecting.cancel("client went away");
        });
        start = System.nanoTime();
        RunOutcome early = connecting.run(neverAnswers(never), 10_000);
        assertEquals(RunStatus.CANCELLED, early.status());
        assertTrue((System.nanoTime() - start) / 1_000_000 < 2000, "cancelled while connecting ends without waiting for the runner");
        never.countDown();
    }
}
