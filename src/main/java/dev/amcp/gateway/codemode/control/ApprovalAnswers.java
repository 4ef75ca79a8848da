package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.PlannedWrite;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.SchemaValidator;
import dev.amcp.gateway.tools.control.ToolAccessPolicy;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * The answers of a run whose writes need a human's approval: reads (and search, describe) go live and are recorded
 * like a live run's; the next call to a tool that writes is checked like a live call (the caller may use it, the
 * arguments match its schema), then planned and never made: its answer ends the run {@code PAUSED}. Resuming the run
 * replays the recording ({@link ResumeAnswers}), which answers through these again after its approved write. One per run.
 */
final class ApprovalAnswers implements BridgeAnswers {

    private final BridgeAnswers live;
    private final ToolCatalog catalog;
    private final SchemaValidator validator;
    private volatile PlannedWrite planned;

    ApprovalAnswers(BridgeAnswers live, ToolCatalog catalog, SchemaValidator validator) {
        this.live = live;
        this.catalog = catalog;
        this.validator = validator;
    }

    /** Recorded like a live run: the resume replays it. */
    @Override
    public String kind() {
        return LIVE;
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        McpTool write = ApprovalAnswers.write(catalog, caller, op, args);
        if (write == null) {
            return live.answer(caller, op, args);
        }
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        BridgeDispatcher.Answer invalid = invalidArguments(validator, write, toolArgs);
        if (invalid != null) {
            return invalid;
        }
        synchronized (this) {
            if (planned == null) { // calls made together: the first to arrive is the one asked about
                planned = PlannedWrite.of(write.getName(), write.getTitle(), toolArgs);
            }
        }
        return new BridgeDispatcher.Answer(false, null, BridgeDispatcher.Answer.PAUSED, "The run paused before its write with '"
                + write.getName() + "': a human must approve it first", write.getName(), true);
    }

    /**
     * The tool an {@code amcp.run} call would write with, looked up as the executor does (a tool this caller may not use
     * is not found, and the live path refuses it), or {@code null} for anything else.
     */
    static McpTool write(ToolCatalog catalog, Caller caller, String op, JsonObject args) {
        String name = JsonSupport.string(args, "name", null);
        if (!"run".equals(op) || name == null || BridgeDispatcher.runArgs(args) == null || BridgeDispatcher.identityRejected(args) != null) {
            return null;
        }
        McpTool tool = catalog.findStored(caller, name).orElse(null);
        return tool == null || tool.isReadOnly() || tool.isCodeTool() || !ToolAccessPolicy.permits(caller, tool) ? null : tool;
    }

    /** The executor's schema check of a write that is planned instead of made: its error answer, or {@code null}. */
    static BridgeDispatcher.Answer invalidArguments(SchemaValidator validator, McpTool write, JsonObject toolArgs) {
        List<String> problems = validator.validate(write.getInputSchema(), toolArgs);
        return problems.isEmpty() ? null : BridgeDispatcher.Answer.error("tool_error",
                "Invalid arguments for tool '" + write.getName() + "': " + String.join("; ", problems), write.getName());
    }

    /** The write the run paused at, or {@code null} when it reached none. */
    PlannedWrite planned() {
        return planned;
    }
}
