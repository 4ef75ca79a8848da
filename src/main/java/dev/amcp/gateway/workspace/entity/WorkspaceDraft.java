package dev.amcp.gateway.workspace.entity;

/**
 * What an operator submits to create a workspace with its first admin; checked as a whole before anything is written.
 *
 * @param slug  the workspace's URL-safe name, unique on the instance
 * @param name  the display name
 * @param admin the first admin's account
 */
public record WorkspaceDraft(String slug, String name, AccountDraft admin) {

    /**
     * A new account. Without a password the account cannot sign in to the editor (it can use its API key).
     *
     * @param username    unique on the instance
     * @param displayName optional; the username when absent
     * @param password    optional, at least 8 characters
     * @param email       optional
     */
    public record AccountDraft(String username, String displayName, String password, String email) {}
}
