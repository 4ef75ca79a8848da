package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.tools.entity.McpTool;
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

    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> create(Caller caller, CodeToolDraft draft) {
        return store.create(caller, draft, verdict(draft));
    }

    @RequiresCapability(Capability.ADMIN)
    public Gated<McpTool> update(Caller caller, Long toolId, CodeToolDraft draft) {
        CodeCheck.Verdict verdict = verdict(draft);
        if (draft.spec().requireReplay() && verdict.problems().isEmpty()) { // code that does not parse is refused by the store
            replay.requirePassing(caller, toolId, draft.spec());
        }
        return store.update(caller, toolId, draft, verdict);
    }

    /** Code that fails the store's own checks (missing, too long) is not sent to the runner. */
    private CodeCheck.Verdict verdict(CodeToolDraft draft) {
        String code = draft.spec().code();
        return code == null || code.isBlank() || code.length() > CodeToolSpec.MAX_CODE_CHARS ? CodeCheck.Verdict.UNCHECKED
                : codeCheck.check(code);
    }
}
