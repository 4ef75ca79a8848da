package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The gateway's own ceilings, enforced by {@link RunSession} whatever the runner claims. The runner side is
 * played by feeding frames; the socket is a stand-in that records what the gateway sends.
 */
class RunSessionTest {

    static final RunLimits LIMITS = new RunLimits(2000, 64, 3, 2, 4096, 100, 50);
    static final Caller CALLER = new Caller(1, 1L, 1L, "u", new RoleGrant(1, "viewer", Set.of(), true, Set.of()), CallScope.server(1));

    final List<String> sent = new CopyOnWriteArrayList<>();

    /** A dispatcher that answers every call at once with {"ok":1}. */
    static class Answering extends BridgeDispatcher {
        @Override
        public Answer handle(Caller caller, String op, JsonObject args) {
            return new Answer(true, Json.createObjectBuilder().add("ok", 1).build(), null, null, "t");
        }
    }

    RunSession open(BridgeDispatcher dispatcher) {
        RunSession session = new RunSession("run-1", new CodeRunRequest(CALLER, CALLER, "return 1", JsonValue.NULL, true, 1L, null,
                "code_execute", "invoker"), LIMITS, dispatcher, Runnable::run);
        RemoteEndpoint.Basic remote = (RemoteEndpoint.Basic) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{RemoteEndpoint.Basic.class}, (p, m, a) -> {
                    if (m.getName().equals("sendText")) {
                        sent.add((String) a[0]);
                    }
                    return null;
                });
        Session socket = (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Session.class}, (p, m, a) ->
                switch (m.getName()) {
                    case "getBasicRemote" -> remote;
                    case "isOpen" -> true;
                    default -> null;
                });
        session.onOpen(socket, null);
        return session;
    }

    static String bridge(long id) {
        return "{\"type\":\"bridge\",\"id\":" + id + ",\"op\":\"search\",\"args\":{}}";
    }

    RunOutcome end(RunSession session) {
        return session.await();
    }

    @Test
    void sendsStartThenAnswersBridgeCallsAndSucceeds() {
        RunSession session = open(new Answering());
        assertEquals("start", JsonSupport.parseObject(sent.get(0)).getString("type"));
        session.onFrame(bridge(1));
        var answer = JsonSupport.parseObject(sent.get(1));
        assertEquals("bridge_result", answer.getString("type"));
        assertEquals(1, answer.getInt("id"));
        session.onFrame("{\"type\":\"done\",\"status\":\"ok\",\"value\":{\"n\":1},\"stats\":{}}");
        RunOutcome outcome = end(session);
        assertEquals(RunStatus.SUCCESS, outcome.status());
        assertEquals(1, outcome.trace().size());
    }

    @Test
    void theBridgeCallBudgetHoldsWhateverTheRunnerSays() {
        RunSession session = open(new Answering());
        for (int id = 1; id <= 4; id++) {
            session.onFrame(bridge(id));
        }
        RunOutcome outcome = end(session);
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(outcome.error().contains("more than 3 bridge calls"), outcome.error());
        assertEquals(4, sent.size(), "start plus three answers; the fourth call is never answered");
    }

    @Test
    void concurrentBridgeCallsAreCapped() {
        RunSession session = open(new BridgeDispatcher() {
            @Override
            public Answer handle(Caller caller, String op, JsonObject args) {
                throw new AssertionError("never answered: the executor below never runs tasks");
            }
        });
        RunSession stalled = new RunSession("run-2", new CodeRunRequest(CALLER, CALLER, "x", JsonValue.NULL, true, 1L, null, "c", "invoker"),
                LIMITS, new Answering(), task -> { });
        stalled.onOpen(sessionStub(), null);
        stalled.onFrame(bridge(1));
        stalled.onFrame(bridge(2));
        stalled.onFrame(bridge(3));
        assertEquals(RunStatus.LIMIT, stalled.await().status());
        session.onFrame("{\"type\":\"done\",\"status\":\"ok\",\"stats\":{}}");
        assertEquals(RunStatus.SUCCESS, end(session).status());
    }

    Session sessionStub() {
        RemoteEndpoint.Basic remote = (RemoteEndpoint.Basic) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{RemoteEndpoint.Basic.class}, (p, m, a) -> null);
        return (Session) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Session.class}, (p, m, a) ->
                switch (m.getName()) {
                    case "getBasicRemote" -> remote;
                    case "isOpen" -> true;
                    default -> null;
                });
    }

    @Test
    void reusedBridgeIdsAreAProtocolError() {
        RunSession session = open(new Answering());
        session.onFrame(bridge(1));
        session.onFrame(bridge(1));
        RunOutcome outcome = end(session);
        assertEquals(RunStatus.ERROR, outcome.status());
        assertTrue(outcome.error().contains("used twice"));
    }

    @Test
    void consoleAndResultBytesAreCapped() {
        RunSession chatty = open(new Answering());
        chatty.onFrame("{\"type\":\"console\",\"level\":\"log\",\"text\":\"" + "x".repeat(60) + "\"}");
        assertEquals(RunStatus.LIMIT, end(chatty).status());
        RunSession big = open(new Answering());
        big.onFrame("{\"type\":\"done\",\"status\":\"ok\",\"value\":\"" + "y".repeat(200) + "\",\"stats\":{}}");
        RunOutcome outcome = end(big);
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(outcome.error().contains("the limit is 100"), outcome.error());
    }

    @Test
    void oversizeAndMalformedFramesEndTheRun() {
        RunSession huge = open(new Answering());
        huge.onFrame("{\"type\":\"console\",\"text\":\"" + "z".repeat(5000) + "\"}");
        assertEquals(RunStatus.LIMIT, end(huge).status());
        RunSession garbage = open(new Answering());
        garbage.onFrame("{not json");
        assertEquals(RunStatus.ERROR, end(garbage).status());
    }

    @Test
    void runnerReportedStatusesMapToAuditStatuses() {
        String[][] cases = {{"timeout", "TIMEOUT"}, {"memory", "LIMIT"}, {"cancelled", "CANCELLED"}, {"protocol_error", "ERROR"}};
        for (String[] c : cases) {
            RunSession session = open(new Answering());
            session.onFrame("{\"type\":\"done\",\"status\":\"" + c[0] + "\",\"stats\":{}}");
            assertEquals(RunStatus.valueOf(c[1]), end(session).status(), c[0]);
        }
        RunSession overBudget = open(new Answering());
        overBudget.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"OutputLimitError\",\"message\":\"too big\"},\"stats\":{}}");
        assertEquals(RunStatus.LIMIT, end(overBudget).status());
        RunSession failed = open(new Answering());
        failed.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"TypeError\",\"message\":\"x is not a function\",\"stack\":\"TypeError: x is not a function\\n    at <anonymous>:1:1\"},\"stats\":{}}");
        RunOutcome outcome = end(failed);
        assertEquals(RunStatus.ERROR, outcome.status());
        assertEquals("TypeError: x is not a function\n    at <anonymous>:1:1", outcome.error());
    }

    @Test
    void theWallClockEndsARunTheRunnerForgot() {
        RunSession session = new RunSession("run-3", new CodeRunRequest(CALLER, CALLER, "x", JsonValue.NULL, true, 1L, null, "c", "invoker"),
                new RunLimits(100, 64, 3, 2, 4096, 100, 50), new Answering(), Runnable::run);
        session.onOpen(sessionStub(), null);
        long start = System.nanoTime();
        RunOutcome outcome = session.await();
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(RunStatus.LIMIT, outcome.status());
        assertTrue(ms >= 100 && ms < 100 + RunSession.GRACE_MILLIS + 1000, ms + " ms");
    }
}
