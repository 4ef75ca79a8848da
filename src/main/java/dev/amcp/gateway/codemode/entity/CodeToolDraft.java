package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.tools.entity.ToolDraft;

/**
 * A code tool an admin submits: the common tool fields (server, name, texts, schemas) and the code tool's own.
 * The draft's {@code endpointMapping} is ignored; the spec builds it.
 */
public record CodeToolDraft(ToolDraft tool, CodeToolSpec spec) {}
