package dev.amcp.gateway.workspace.entity;

/**
 * An admin's change to a person of their workspace; a {@code null} field stays as it is.
 *
 * @param role     the name of a role of the workspace
 * @param enabled  {@code false} ends their editor sessions and revokes their API keys at once
 * @param password a new editor password, at least 8 characters
 */
public record UserChange(String role, Boolean enabled, String password) {}
