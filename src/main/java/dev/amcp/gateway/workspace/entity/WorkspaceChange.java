package dev.amcp.gateway.workspace.entity;

/**
 * An operator's change to a workspace; a {@code null} field stays as it is.
 *
 * @param name    the display name
 * @param enabled {@code false} stops the workspace's keys, MCP and editor sign-ins at once; its data stays
 */
public record WorkspaceChange(String name, Boolean enabled) {}
