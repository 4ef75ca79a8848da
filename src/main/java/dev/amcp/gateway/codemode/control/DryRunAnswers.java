package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.SchemaValidator;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A dry run's answers: reads (and search, describe) go live; a call to a tool that writes is checked like a live call
 * (the caller may use it, the arguments match its schema), then planned, answered with {@link ToolResult#DRY_RUN_PLACEHOLDER} and never
 * handed to the {@code ToolExecutor}. The plan keeps the writes in the order the code made them. One per run.
 */
final class DryRunAnswers implements BridgeAnswers {

    private final BridgeAnswers live;
    private final ToolCatalog catalog;
    private final SchemaValidator validator;
    private final List<JsonObject> planned = new ArrayList<>();

    DryRunAnswers(BridgeAnswers live, ToolCatalog catalog, SchemaValidator validator) {
        this.live = live;
        this.catalog = catalog;
        this.validator = validator;
    }

    @Override
    public String kind() {
        return DRY_RUN;
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        McpTool tool = ApprovalAnswers.write(catalog, caller, op, args); // looked up as the executor would
        if (tool == null) {
            return live.answer(caller, op, args);
        }
        String name = tool.getName();
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        BridgeDispatcher.Answer invalid = ApprovalAnswers.invalidArguments(validator, tool, toolArgs);
        if (invalid != null) {
            return invalid;
        }
        synchronized (planned) {
            planned.add(JsonSupport.JSON.createObjectBuilder().add("tool", name).add("args", toolArgs).build());
        }
        return BridgeDispatcher.Answer.value(ToolResult.DRY_RUN_PLACEHOLDER, name);
    }

    /** The writes the code would have made, in order: {@code [{tool, args}]}. */
    JsonArray plannedWrites() {
        JsonArrayBuilder b = JsonSupport.JSON.createArrayBuilder();
        synchronized (planned) {
            planned.forEach(b::add);
        }
        return b.build();
    }
}
