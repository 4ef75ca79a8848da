package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.Divergence;
import dev.amcp.gateway.codemode.entity.RunOutcome;
import dev.amcp.gateway.codemode.entity.RunStatus;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Replays recorded runs of a code tool: the recorded program or an edited one runs in the real runner, and its
 * {@code amcp.run} calls are answered from the recording ({@link RecordedAnswers}), never by a tool. A replay is a run
 * of its own ({@code kind = replay}, naming the run it replays). What the replaying caller sees of a recording is only
 * what it may read: the results of tools outside its role's scope are withheld, and so is the old return value when any
 * call's result is withheld. Also checks a draft against the tool's recorded runs when the tool {@code requireReplay}s.
 */
@ApplicationScoped
public class CodeToolReplay {

    @Inject
    ToolService tools;

    @Inject
    CodeToolInvoker invoker;

    @Inject
    CodeExecutorService executor;

    @Inject
    CodeRunQueries runs;

    @Inject
    ToolCatalog catalog;

    @Inject
    CodeRunSettings settings;

    /**
     * How a replay went: its own run id, the run it replayed, the old and new return values ({@code null} when there is
     * none, or {@code oldWithheld}), its status and error, and where it diverged.
     */
    public record Replay(String runId, String replayOf, JsonValue oldValue, boolean oldWithheld, JsonValue newValue,
                         RunStatus status, String error, Divergence diverged) {

        public boolean passed() {
            return status == RunStatus.SUCCESS;
        }

        public JsonObject json() {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("runId", runId).add("replayOf", replayOf)
                    .add("status", status.name()).add("oldValue", oldValue == null ? JsonValue.NULL : oldValue)
                    .add("newValue", newValue == null ? JsonValue.NULL : newValue)
                    .add("same", oldValue != null && newValue != null && CanonicalJson.of(oldValue).equals(CanonicalJson.of(newValue)));
            if (oldWithheld) {
                b.add("oldValueWithheld", true);
            }
            if (error != null) {
                b.add("error", error);
            }
            if (diverged != null) {
                b.add("diverged", diverged.json());
            }
            return b.build();
        }
    }

    /** Replays run {@code runId} of code tool {@code toolId} with its own code, or with {@code code} when given. */
    @RequiresCapability(Capability.TOOLS_WRITE)
    public Replay replay(Caller caller, long toolId, String runId, String code) {
        McpTool tool = codeTool(caller, toolId);
        if (runId == null || runId.isBlank()) {
            throw new IllegalArgumentException("runId is required: the run to replay");
        }
        if (code != null && (code.isBlank() || code.length() > CodeToolSpec.MAX_CODE_CHARS)) {
            throw new IllegalArgumentException("code must be 1 to " + CodeToolSpec.MAX_CODE_CHARS + " characters");
        }
        CodeRunQueries.Recorded recorded = runs.recorded(caller, toolId, runId).orElseThrow(() -> new NoSuchItemException(
                Message.of("problem.replay.noRecording", "No recorded run {0} of this code tool", runId)));
        return replay(caller, tool, CodeToolSpec.from(tool.getEndpointMapping()), false, recorded, code);
    }

    /** The recorded runs of this code tool a caller may replay, newest first. */
    @RequiresCapability(Capability.TOOLS_WRITE)
    public List<CodeRun> replayable(Caller caller, long toolId, int limit) {
        codeTool(caller, toolId);
        return runs.lastRecorded(caller, toolId, false, limit).stream().map(CodeRunQueries.Recorded::run).toList();
    }

    /**
     * A recording as this caller may see it: {@code {runId, status, code, input, result?, calls: [{tool, args, ok,
     * value | error} | {tool, truncated} | {tool, withheld}]}}.
     */
    @RequiresCapability(Capability.TOOLS_WRITE)
    public JsonObject shown(Caller caller, long toolId, String runId) {
        codeTool(caller, toolId);
        CodeRunQueries.Recorded recorded = runs.recorded(caller, toolId, runId).orElseThrow(() -> new NoSuchItemException(
                Message.of("problem.replay.noRecording", "No recorded run {0} of this code tool", runId)));
        JsonObject doc = recorded.recording().getRecording();
        Predicate<String> mayRead = viewerMayRead(caller);
        JsonArrayBuilder calls = JsonSupport.JSON.createArrayBuilder();
        boolean withheld = false;
        for (JsonObject call : doc.getJsonArray("calls").getValuesAs(JsonObject.class)) {
            String tool = JsonSupport.string(call, "tool", "");
            if (mayRead.test(tool)) {
                JsonObjectBuilder c = JsonSupport.JSON.createObjectBuilder(call);
                c.remove("key");
                calls.add(c);
            } else {
                withheld = true;
                calls.add(JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("withheld", true));
            }
        }
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("runId", runId).add("status", recorded.run().getStatus())
                .add("code", recorded.recording().getCode()).add("input", doc.getOrDefault("input", JsonValue.NULL)).add("calls", calls);
        if (!withheld && doc.containsKey("result")) {
            b.add("result", doc.get("result"));
        }
        return b.build();
    }

    /**
     * For a save of a tool that {@code requireReplay}s: replays its last recorded successful runs with the draft's code
     * and rules, and refuses the save (409, naming the run) at the first that does not pass. A tool never run passes.
     */
    void requirePassing(Caller caller, long toolId, CodeToolSpec draft) {
        McpTool tool = codeTool(caller, toolId);
        for (CodeRunQueries.Recorded recorded : runs.lastRecorded(caller, toolId, true, settings.values().replayOnSaveRuns())) {
            Replay replay = replay(caller, tool, draft, true, recorded, draft.code());
            if (!replay.passed()) {
                throw new ConflictException("This code tool requires its recorded runs to pass before a save (requireReplay): replaying run "
                        + recorded.run().getRunId() + " with the new code ended " + replay.status() + ": " + replay.error());
            }
        }
    }

    private Replay replay(Caller caller, McpTool tool, CodeToolSpec spec, boolean draft, CodeRunQueries.Recorded recorded, String code) {
        JsonObject doc = recorded.recording().getRecording();
        String runId = recorded.run().getRunId();
        if (doc.getBoolean("inputTruncated", false)) {
            throw new ConflictException("Run " + runId + " cannot be replayed: its input was over the recording size cap ("
                    + CodeRunSettings.RECORD_MAX_BYTES + ")");
        }
        Predicate<String> mayRead = viewerMayRead(caller);
        List<JsonObject> calls = doc.getJsonArray("calls").getValuesAs(JsonObject.class);
        boolean oldWithheld = calls.stream().anyMatch(c -> !mayRead.test(JsonSupport.string(c, "tool", "")));
        JsonValue oldValue = oldWithheld ? null : doc.get("result");
        CodeToolInvoker.Prepared prepared = invoker.prepare(caller, tool, spec, draft, code == null ? recorded.recording().getCode() : code,
                doc.getOrDefault("input", JsonValue.NULL));
        if (prepared.refusal() != null) {
            throw new ConflictException(prepared.refusal());
        }
        RecordedAnswers answers = new RecordedAnswers(executor.live(), calls, mayRead, (bridgeCaller, name) -> catalog.findStored(bridgeCaller, name).isPresent());
        RunOutcome outcome = executor.run(prepared.request(), answers, runId);
        return new Replay(outcome.runId(), runId, oldValue, oldWithheld, outcome.value(), outcome.status(), outcome.error(), answers.divergence());
    }

    /** Whether the caller's role may read a tool's results: it may use the tool itself (the same rule as a call's). */
    private Predicate<String> viewerMayRead(Caller caller) {
        Map<String, Boolean> known = new ConcurrentHashMap<>(); // asked from the run's bridge threads
        return tool -> tool.isEmpty() || known.computeIfAbsent(tool, name -> catalog.findStored(caller, name).isPresent());
    }

    private McpTool codeTool(Caller caller, long toolId) {
        McpTool tool = tools.findInWorkspace(caller, toolId);
        if (!tool.isCodeTool()) {
            throw new IllegalArgumentException("Tool " + toolId + " is not a code tool");
        }
        return tool;
    }
}
