package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.tools.entity.ToolDraft;

/**
 * A code tool an admin submits: the common tool fields (server, name, texts, schemas) and the code tool's own.
 * The draft's {@code endpointMapping} is ignored; the spec builds it. {@code usesFromCode}: the submitter left
 * {@code uses} out, so the save takes the tool names the runner reads from the code.
 */
public record CodeToolDraft(ToolDraft tool, CodeToolSpec spec, boolean usesFromCode) {

    public CodeToolDraft(ToolDraft tool, CodeToolSpec spec) {
        this(tool, spec, false);
    }

    /** This draft with {@code uses} as read from the code. */
    public CodeToolDraft withUses(java.util.List<String> uses) {
        return new CodeToolDraft(tool, spec.withUses(uses), false);
    }
}
