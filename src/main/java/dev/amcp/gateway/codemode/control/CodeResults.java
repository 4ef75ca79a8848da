package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.JsonValue;

/** Turns a run's outcome into the tool result a client sees. */
final class CodeResults {

    private static final int CONSOLE_TAIL = 2_000;

    private CodeResults() {}

    /** A dry run's result: the run's, with the writes it planned in {@code _meta}, whether it succeeded or not. */
    static ToolResult dryRun(RunOutcome outcome, jakarta.json.JsonArray plannedWrites) {
        return toToolResult(outcome).withDryRunPlan(plannedWrites);
    }

    static ToolResult toToolResult(RunOutcome outcome) {
        if (outcome.status() == RunStatus.SUCCESS) {
            return ToolResult.json(outcome.value() == null ? JsonValue.NULL : outcome.value());
        }
        StringBuilder text = new StringBuilder("Code run ").append(outcome.status().name().toLowerCase())
                .append(": ").append(outcome.error());
        String console = outcome.console();
        if (console != null && !console.isBlank()) {
            text.append("\nConsole output:\n").append(console.length() <= CONSOLE_TAIL ? console
                    : "…" + console.substring(console.length() - CONSOLE_TAIL));
        }
        return ToolResult.error(text.toString());
    }
}
