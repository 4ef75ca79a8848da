package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.upstreams.control.UpstreamUsers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** The tools that call an upstream, for the upstream package's in-use check and its grant upgrade. */
@ApplicationScoped
public class ToolUpstreamUsers implements UpstreamUsers {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Override
    public List<String> toolsCalling(long workspaceId, String upstream) {
        return em.createNamedQuery(McpTool.BY_WORKSPACE, McpTool.class).setParameter("workspaceId", workspaceId)
                .getResultStream().filter(t -> upstream.equals(t.getEndpointMapping().getString("upstream", null)))
                .map(McpTool::getName).toList();
    }

    @Override
    public List<DirectCall> directCalls() {
        return em.createQuery("select t from McpTool t where t.method in :methods", McpTool.class)
                .setParameter("methods", McpTool.HTTP_METHODS).getResultStream()
                .filter(t -> t.getEndpointMapping() != null && !t.getEndpointMapping().containsKey("upstream"))
                .map(t -> new DirectCall(t.getWorkspaceId(), filled(t.getEndpointMapping().getString("url", null)),
                        t.getEndpointMapping().getString("credential", null)))
                .toList();
    }

    /** Each {@code {argument}} as {@code arg}, so the URL parses; a {@code ${setting}} stays for the rule to expand. */
    private static String filled(String url) {
        return url == null ? null : HttpEndpointMapping.PATH_PARAM.matcher(url).replaceAll("arg");
    }
}
