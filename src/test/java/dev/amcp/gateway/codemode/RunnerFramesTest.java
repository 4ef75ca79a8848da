package dev.amcp.gateway.codemode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

/** The v1 wire format, both directions, and the rejection of everything the runner must not send. */
class RunnerFramesTest {

    @Test
    void parsesTheThreeRunnerFrames() {
        var bridge = assertInstanceOf(RunnerFrames.Bridge.class,
                RunnerFrames.parse("{\"type\":\"bridge\",\"id\":3,\"op\":\"run\",\"args\":{\"name\":\"a\",\"args\":{}}}"));
        assertEquals(3, bridge.id());
        assertEquals("a", bridge.args().getString("name"));
        var console = assertInstanceOf(RunnerFrames.Console.class, RunnerFrames.parse("{\"type\":\"console\",\"level\":\"warn\",\"text\":\"hi\"}"));
        assertEquals("warn", console.level());
        var done = assertInstanceOf(RunnerFrames.Done.class, RunnerFrames.parse(
                "{\"type\":\"done\",\"status\":\"ok\",\"value\":[1,2],\"stats\":{\"wallMs\":4,\"bridgeCalls\":1,\"outputBytes\":5}}"));
        assertEquals("ok", done.status());
        assertEquals(4, done.wallMs());
        assertEquals(JsonValue.ValueType.ARRAY, done.value().getValueType());
    }

    @Test
    void rejectsWhatTheProtocolDoesNotAllow() {
        for (String bad : new String[]{"not json", "[1]", "{\"type\":\"start\"}", "{\"type\":\"bridge\",\"id\":1,\"op\":\"exec\"}",
                "{\"type\":\"bridge\",\"id\":1.5,\"op\":\"run\"}", "{\"type\":\"bridge\",\"id\":-1,\"op\":\"run\"}",
                "{\"type\":\"bridge\",\"id\":1,\"op\":\"run\",\"args\":[1]}", "{\"type\":\"done\",\"status\":\"great\"}"}) {
            assertThrows(RunnerFrames.ProtocolViolation.class, () -> RunnerFrames.parse(bad), bad);
        }
    }

    @Test
    void writesGatewayFrames() {
        var limits = new RunLimits(5000, 64, 10, 4, 65536, 1024, 1024);
        var start = JsonSupport.parseObject(RunnerFrames.start("r1", "return 1", JsonValue.NULL, limits));
        assertEquals("start", start.getString("type"));
        assertEquals(5000, start.getJsonObject("limits").getInt("timeoutMs"));
        assertEquals(1024, start.getJsonObject("limits").getInt("maxOutputBytes"));
        var error = JsonSupport.parseObject(RunnerFrames.bridgeError(7, "not_available", "nope"));
        assertEquals(false, error.getBoolean("ok"));
        assertEquals("not_available", error.getJsonObject("error").getString("code"));
        assertEquals("cancel", JsonSupport.parseObject(RunnerFrames.cancel()).getString("type"));
    }

    @Test
    void theCheckFrameAndItsAnswer() {
        var check = JsonSupport.parseObject(RunnerFrames.check("return import.meta"));
        assertEquals("check", check.getString("type"));
        assertEquals("return import.meta", check.getString("code"));
        var problems = RunnerFrames.parseCheckResult(
                "{\"type\":\"check_result\",\"problems\":[{\"line\":2,\"column\":17,\"message\":\"import is not available\"}]}");
        assertEquals(java.util.List.of(new RunnerFrames.CodeProblem(2, 17, "import is not available")), problems.problems());
        assertEquals(java.util.List.of(), problems.calls(), "a runner that sends only problems names no tool");
        assertEquals(RunnerFrames.CheckResult.NONE, RunnerFrames.parseCheckResult("{\"type\":\"check_result\",\"problems\":[]}"));
        var names = RunnerFrames.parseCheckResult("{\"type\":\"check_result\",\"problems\":[],"
                + "\"calls\":[{\"name\":\"customer_get\",\"op\":\"run\",\"line\":3,\"column\":26}],"
                + "\"computed\":[{\"line\":4,\"column\":8,\"reason\":\"amcp[...] is computed\"}]}");
        assertEquals(java.util.List.of(new RunnerFrames.ToolCall("customer_get", "run", 3, 26)), names.calls());
        assertEquals(java.util.List.of(new RunnerFrames.ComputedCall(4, 8, "amcp[...] is computed")), names.computed());
        for (String bad : new String[]{"nope", "{\"type\":\"done\",\"status\":\"protocol_error\"}", "{\"type\":\"check_result\"}",
                "{\"type\":\"check_result\",\"problems\":[1]}", "{\"type\":\"check_result\",\"problems\":[],\"calls\":{}}",
                "{\"type\":\"check_result\",\"problems\":[],\"computed\":[\"x\"]}"}) {
            assertThrows(RunnerFrames.ProtocolViolation.class, () -> RunnerFrames.parseCheckResult(bad), bad);
        }
    }

    @Test
    void progressFramesAreCheckedAsUntrustedInput() {
        var p = assertInstanceOf(RunnerFrames.Progress.class, RunnerFrames.parse("{\"type\":\"progress\",\"done\":2,\"total\":5,\"message\":\"two\"}"));
        assertEquals(new RunnerFrames.Progress(2, 5.0, "two"), p);
        assertEquals(new RunnerFrames.Progress(0.5, null, null), RunnerFrames.parse("{\"type\":\"progress\",\"done\":0.5}"));
        for (String bad : new String[]{"{\"type\":\"progress\"}", "{\"type\":\"progress\",\"done\":-1}", "{\"type\":\"progress\",\"done\":\"1\"}",
                "{\"type\":\"progress\",\"done\":1,\"total\":0}", "{\"type\":\"progress\",\"done\":1,\"total\":\"3\"}"}) {
            assertThrows(RunnerFrames.ProtocolViolation.class, () -> RunnerFrames.parse(bad), bad);
        }
    }

    @Test
    void theRunnersLimitStatusIsAccepted() {
        var done = assertInstanceOf(RunnerFrames.Done.class, RunnerFrames.parse(
                "{\"type\":\"done\",\"status\":\"limit\",\"error\":{\"name\":\"LimitError\",\"message\":\"refusals\"},\"stats\":{}}"));
        assertEquals("limit", done.status());
        assertEquals("LimitError", done.error().getString("name"));
    }
}
