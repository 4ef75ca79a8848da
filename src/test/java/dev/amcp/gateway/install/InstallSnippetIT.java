package dev.amcp.gateway.install;

/**
 * The install guide on {@code DB_URL}'s database (PostgreSQL in CI; a fresh H2 file when it is unset), on the
 * configured install ports; see {@link InstallWalk} for what it proves.
 */
class InstallSnippetIT extends InstallWalk {

    InstallSnippetIT() {
        super("", 0, false);
    }
}
