package dev.amcp.gateway.governance.control;

import java.util.Optional;

/** A workspace's id by its slug, for filters that name workspaces; {@code workspace} answers it, so governance imports none of it. */
public interface WorkspaceIds {

    Optional<Long> idOf(String slug);
}
