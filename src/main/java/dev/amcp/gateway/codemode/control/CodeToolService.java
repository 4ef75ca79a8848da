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
        return store.create(caller, draft, verdict(draft.spec().code()));
    }

    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft) {
        CodeCheck.Verdict verdict = verdict(draft.spec().code());
        if (draft.spec().requireReplay() && verdict.problems().isEmpty()) { // code that does not parse is refused by the store
            replay.requirePassing(caller, toolId, draft.spec());
        }
        return store.update(caller, toolId, draft, verdict);
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
