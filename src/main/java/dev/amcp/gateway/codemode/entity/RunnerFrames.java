package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Set;

/**
 * The gateway ⇄ runner protocol v1 (JSON text frames over one WebSocket per run). Frames from the runner are
 * untrusted: {@link #parse} accepts exactly the documented shapes and rejects anything else.
 */
public final class RunnerFrames {

    public static final Set<String> BRIDGE_OPS = Set.of("search", "describe", "run");
    public static final Set<String> DONE_STATUSES = Set.of("ok", "error", "limit", "timeout", "memory", "cancelled", "protocol_error");

    private RunnerFrames() {}

    /** A frame from the runner. */
    public sealed interface Inbound permits Bridge, Console, Progress, Done {}

    public record Bridge(long id, String op, JsonObject args) implements Inbound {}

    public record Console(String level, String text) implements Inbound {}

    /** {@code amcp.progress(done, total, message)} from the code; {@code total} and {@code message} may be null. */
    public record Progress(double done, Double total, String message) implements Inbound {}

    public record Done(String status, JsonValue value, JsonObject error, long wallMs, long bridgeCalls, long outputBytes)
            implements Inbound {}

    /** The runner broke the protocol; the run ends. */
    public static class ProtocolViolation extends RuntimeException {
        public ProtocolViolation(String message) {
            super(message);
        }
    }

    public static Inbound parse(String text) {
        JsonObject frame;
        try {
            frame = JsonSupport.parseObject(text);
        } catch (IllegalArgumentException e) {
            throw new ProtocolViolation("runner sent a frame that is not a JSON object");
        }
        String type = JsonSupport.string(frame, "type", "");
        switch (type) {
            case "bridge" -> {
                JsonValue id = frame.get("id");
                String op = JsonSupport.string(frame, "op", "");
                JsonValue args = frame.get("args");
                if (!(id instanceof JsonNumber n) || !n.isIntegral() || n.longValue() < 0 || !BRIDGE_OPS.contains(op)) {
                    throw new ProtocolViolation("bridge frame needs an integral id and op search, describe or run");
                }
                if (args != null && args.getValueType() != JsonValue.ValueType.OBJECT && args != JsonValue.NULL) {
                    throw new ProtocolViolation("bridge args must be an object");
                }
                return new Bridge(n.longValue(), op, args instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT);
            }
            case "console" -> {
                return new Console(JsonSupport.string(frame, "level", "log"), JsonSupport.string(frame, "text", ""));
            }
            case "progress" -> {
                JsonValue total = frame.get("total");
                if (!(frame.get("done") instanceof JsonNumber done) || !(done.doubleValue() >= 0) || Double.isInfinite(done.doubleValue())
                        || (total != null && !(total instanceof JsonNumber t && t.doubleValue() > 0 && !Double.isInfinite(t.doubleValue())))) {
                    throw new ProtocolViolation("progress frame needs a number done >= 0 and, if any, a number total > 0");
                }
                return new Progress(done.doubleValue(), total == null ? null : ((JsonNumber) total).doubleValue(),
                        frame.get("message") instanceof jakarta.json.JsonString m ? m.getString() : null);
            }
            case "done" -> {
                String status = JsonSupport.string(frame, "status", "");
                if (!DONE_STATUSES.contains(status)) {
                    throw new ProtocolViolation("done frame has an unknown status");
                }
                JsonObject stats = frame.get("stats") instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
                JsonObject error = frame.get("error") instanceof JsonObject o ? o : null;
                return new Done(status, frame.get("value"), error, number(stats, "wallMs"), number(stats, "bridgeCalls"),
                        number(stats, "outputBytes"));
            }
            default -> throw new ProtocolViolation("runner sent an unknown frame type");
        }
    }

    public static String start(String runId, String code, JsonValue input, RunLimits limits) {
        return JsonSupport.JSON.createObjectBuilder().add("type", "start").add("runId", runId).add("code", code)
                .add("input", input == null ? JsonValue.NULL : input).add("limits", limits.startFrameLimits()).build().toString();
    }

    public static String bridgeOk(long id, JsonValue value) {
        return JsonSupport.JSON.createObjectBuilder().add("type", "bridge_result").add("id", id).add("ok", true)
                .add("value", value == null ? JsonValue.NULL : value).build().toString();
    }

    public static String bridgeError(long id, String code, String message) {
        return JsonSupport.JSON.createObjectBuilder().add("type", "bridge_result").add("id", id).add("ok", false)
                .add("error", JsonSupport.JSON.createObjectBuilder().add("code", code).add("message", message)).build().toString();
    }

    /** The save-time code check: the only frame of a check connection (no sandbox is used). */
    public static String check(String code) {
        return JsonSupport.JSON.createObjectBuilder().add("type", "check").add("code", code).build().toString();
    }

    /** One problem the runner's code check found, at a 1-based line and column of the user's code. */
    public record CodeProblem(int line, int column, String message) {}

    /** A tool name the code passes literally to {@code amcp.run} or {@code amcp.describe} ({@code op}), and where. */
    public record ToolCall(String name, String op, int line, int column) {}

    /** A place where the code calls or may call a tool whose name cannot be read from the code, and why. */
    public record ComputedCall(int line, int column, String reason) {}

    /** What the runner's check read from some code: its problems (none: fine) and the tool names it uses. */
    public record CheckResult(java.util.List<CodeProblem> problems, java.util.List<ToolCall> calls, java.util.List<ComputedCall> computed) {
        public static final CheckResult NONE = new CheckResult(java.util.List.of(), java.util.List.of(), java.util.List.of());

        public CheckResult {
            problems = java.util.List.copyOf(problems);
            calls = java.util.List.copyOf(calls);
            computed = java.util.List.copyOf(computed);
        }
    }

    /**
     * Reads the runner's {@code check_result}; anything else is a protocol violation. {@code calls} and
     * {@code computed} came later than {@code problems}, so a runner that sends only problems reads as naming no tool.
     */
    public static CheckResult parseCheckResult(String text) {
        JsonObject frame;
        try {
            frame = JsonSupport.parseObject(text);
        } catch (IllegalArgumentException e) {
            throw new ProtocolViolation("runner sent a frame that is not a JSON object");
        }
        if (!"check_result".equals(JsonSupport.string(frame, "type", "")) || !(frame.get("problems") instanceof jakarta.json.JsonArray)) {
            throw new ProtocolViolation("a check is answered by one check_result frame with a problems array");
        }
        return new CheckResult(
                objects(frame, "problems").map(o -> new CodeProblem((int) number(o, "line"), (int) number(o, "column"), JsonSupport.string(o, "message", ""))).toList(),
                objects(frame, "calls").map(o -> new ToolCall(JsonSupport.string(o, "name", ""), JsonSupport.string(o, "op", "run"),
                        (int) number(o, "line"), (int) number(o, "column"))).toList(),
                objects(frame, "computed").map(o -> new ComputedCall((int) number(o, "line"), (int) number(o, "column"),
                        JsonSupport.string(o, "reason", "the tool name is computed"))).toList());
    }

    /** The objects of an optional array field; a field that is not an array, or an element that is not an object, is a violation. */
    private static java.util.stream.Stream<JsonObject> objects(JsonObject frame, String key) {
        JsonValue value = frame.get(key);
        if (value == null) {
            return java.util.stream.Stream.empty();
        }
        if (!(value instanceof jakarta.json.JsonArray array) || array.stream().anyMatch(v -> !(v instanceof JsonObject))) {
            throw new ProtocolViolation("check_result " + key + " must be an array of objects");
        }
        return array.stream().map(JsonObject.class::cast);
    }

    public static String cancel() {
        return "{\"type\":\"cancel\"}";
    }

    private static long number(JsonObject o, String key) {
        return o.get(key) instanceof JsonNumber n ? n.longValue() : 0;
    }
}
