package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * What the runner's answers mean for a run, in the gateway's words: its {@code done} frame as a status, value and
 * message, and a connection it did not accept as a refusal that says why. The runner's claims are only read here;
 * the gateway's own ceilings are checked again (a result over the limit is a LIMIT whatever the runner said).
 */
final class RunnerVerdicts {

    /** How a run ended by the runner's account. */
    record Verdict(RunStatus status, JsonValue value, String error) {
    }

    private RunnerVerdicts() {
    }

    static Verdict of(RunnerFrames.Done done, RunLimits limits) {
        return switch (done.status()) {
            case "ok" -> {
                JsonValue value = done.value() == null ? JsonValue.NULL : done.value();
                int bytes = JsonSupport.utf8Length(value.toString());
                yield bytes > limits.maxResultBytes()
                        ? new Verdict(RunStatus.LIMIT, null, "The result was " + bytes + " bytes; the limit is " + limits.maxResultBytes())
                        : new Verdict(RunStatus.SUCCESS, value, null);
            }
            case "error" -> runnerWasBusy(done.error())
                    ? new Verdict(RunStatus.REFUSED, null, "The code runner is busy (its queue is full); the run was refused, try again shortly")
                    : new Verdict(breachedRunnerLimit(done.error()) ? RunStatus.LIMIT : RunStatus.ERROR, null, describeError(done.error()));
            case "limit" -> new Verdict(RunStatus.LIMIT, null, "The code runner stopped the run at one of its limits: "
                    + (done.error() == null ? "no detail given" : JsonSupport.string(done.error(), "message", "no detail given")));
            case "timeout" -> new Verdict(RunStatus.TIMEOUT, null, "The run exceeded its timeout of " + limits.timeoutMs() + " ms");
            case "memory" -> new Verdict(RunStatus.LIMIT, null, "The run exceeded its memory limit of " + limits.memoryMb() + " MB");
            case "cancelled" -> new Verdict(RunStatus.CANCELLED, null, "The run was cancelled");
            default -> new Verdict(RunStatus.ERROR, null, "The runner ended the run with a protocol error"
                    + (done.error() == null ? "" : ": " + JsonSupport.string(done.error(), "message", "")));
        };
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
}
