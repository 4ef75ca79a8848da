package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.codemode.entity.UsedToolDrift;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import java.util.List;
import java.util.Map;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Saves code tools. Only admins define them ({@link RequiresCapability}); the runner checks the code first
 * ({@link CodeCheck}), outside any transaction; then {@link CodeToolStore} applies the license gates and every other
 * check and writes the tool, or nothing. A tool that {@code requireReplay}s is saved only if the new code passes its
 * recorded runs ({@link CodeToolReplay}).
 */
@ApplicationScoped
public class CodeToolService {

    @Inject
    CodeCheck codeCheck;

    @Inject
    CodeToolStore store;

    @Inject
    CodeToolReplay replay;

    @Inject
    ToolService tools;

    @Inject
    CodeToolDrift drift;

    /** A code tool and how the tools it uses changed since it was saved (empty: no review needed). */
    public record Reviewed(McpTool tool, List<UsedToolDrift> drift) {}

    @RequiresCapability(Capability.ADMIN)
    public Reviewed review(Caller caller, long toolId) {
        McpTool tool = tools.findInWorkspace(caller, toolId);
        if (!tool.isCodeTool()) {
            throw new NoSuchItemException(Message.of("problem.codeTool.missing", "No code tool {0} in this workspace", toolId));
        }
        return new Reviewed(tool, drift.of(tool));
    }

    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> create(Caller caller, CodeToolDraft draft) {
        CodeCheck.Verdict verdict = verdict(draft.spec().code());
        CodeToolDraft complete = withUsesRead(draft, verdict);
        return noteUsesRead(draft, store.create(caller, complete, verdict), complete);
    }

    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft) {
        CodeCheck.Verdict verdict = verdict(draft.spec().code());
        CodeToolDraft complete = withUsesRead(draft, verdict);
        if (complete.spec().requireReplay() && verdict.problems().isEmpty()) { // code that does not parse is refused by the store
            replay.requirePassing(caller, toolId, complete.spec());
        }
        return noteUsesRead(draft, store.update(caller, toolId, complete, verdict), complete);
    }

    /**
     * A draft without {@code uses} gets the names the runner read from its code (the editor pre-fills the same), so an
     * agent need not repeat what the code says; the store then checks them as it checks given ones. Code that could not
     * be read leaves nothing to take them from.
     */
    static CodeToolDraft withUsesRead(CodeToolDraft draft, CodeCheck.Verdict verdict) {
        if (!draft.usesFromCode()) {
            return draft;
        }
        String code = draft.spec().code();
        boolean readable = code != null && !code.isBlank() && code.length() <= CodeToolSpec.MAX_CODE_CHARS;
        if (readable && !verdict.checked()) {
            throw new ToolService.InvalidToolException(Map.of("uses", Message.of("problem.codeTool.usesUnread",
                    "uses was left out and no code runner answered to read it from the code (CODE_RUNNER_URL); list the tools the code calls in uses")));
        }
        return draft.withUses(verdict.toolNames());
    }

    private static Gated<McpTool> noteUsesRead(CodeToolDraft submitted, Gated<McpTool> saved, CodeToolDraft complete) {
        if (!submitted.usesFromCode()) {
            return saved;
        }
        List<String> uses = complete.spec().uses();
        return saved.withWarning(uses.isEmpty()
                ? Message.of("notice.codeTool.usesReadNone", "uses was read from the code: it calls no tool by a literal name")
                : Message.of("notice.codeTool.usesRead", "uses was read from the code: {0}", String.join(", ", uses)));
    }

    /**
     * What the runner reads from code being edited (problems, tool names), for the editor's pre-filled {@code uses}:
     * the same analysis a save applies, so the two cannot disagree.
     */
    @RequiresCapability(Capability.ADMIN)
    public CodeCheck.Verdict analyze(Caller caller, String code) {
        return verdict(code);
    }

    /** Code that fails the store's own checks (missing, too long) is not sent to the runner. */
    private CodeCheck.Verdict verdict(String code) {
        return code == null || code.isBlank() || code.length() > CodeToolSpec.MAX_CODE_CHARS ? CodeCheck.Verdict.UNCHECKED
                : codeCheck.check(code);
    }
}
