package dev.amcp.gateway.workspace.entity;

import java.util.Set;

/**
 * What an admin submits to create or change an MCP server; checked as a whole before anything is written.
 *
 * @param slug      the URL name, {@code /mcp/{slug}}
 * @param name      the display name
 * @param description optional text
 * @param codeMode  {@code off} or {@code inline}
 * @param roleIds   the roles of the workspace that may use this server
 */
public record ServerDraft(String slug, String name, String description, String codeMode, Set<Long> roleIds) {

    public ServerDraft {
        roleIds = roleIds == null ? Set.of() : Set.copyOf(roleIds);
    }
}
