package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Finds the tools a caller may use in its scope: stored tools filtered by the policy, plus virtual tools. */
@ApplicationScoped
@Transactional // a fresh persistence context per call: outside a transaction Liberty keeps one per request
public class ToolCatalog {

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Instance<ToolProvider> providers;

    @Inject
    Settings settings;

    @Inject
    ToolCatalog self;

    private ShortCache<StoredName, McpTool> httpTools;
    /**
     * Names no stored tool has (a virtual tool's, such as {@code code_execute}), kept apart from the tools: a caller
     * asking for many unknown names starts this cache over, never the one of the tools.
     */
    private ShortCache<StoredName, Optional<McpTool>> absentNames;

    @PostConstruct
    void configure() {
        httpTools = new ShortCache<>(settings, AccessChanges::generation);
        absentNames = new ShortCache<>(settings, AccessChanges::generation);
    }

    /** Every tool this caller may use here, stored tools first, each name once, sorted by name within a kind. */
    public List<ToolDescriptor> list(Caller caller) {
        return withVirtualTools(caller, listStored(caller));
    }

    /** The given stored tools, then each provider's virtual tools whose name no tool before it has. */
    public List<ToolDescriptor> withVirtualTools(Caller caller, List<ToolDescriptor> stored) {
        List<ToolDescriptor> result = new ArrayList<>(stored);
        for (ToolProvider provider : providers) {
            provider.virtualTools(caller).stream().map(ToolProvider.VirtualTool::descriptor)
                    .filter(d -> result.stream().noneMatch(r -> r.name().equals(d.name())))
                    .forEach(result::add);
        }
        return result;
    }

    /** Only the stored tools this caller may use here, without virtual tools (the shared MCP endpoint's list). */
    public List<ToolDescriptor> listStored(Caller caller) {
        return permittedStoredTools(caller).stream().map(ToolDescriptor::of).toList();
    }

    /** The stored tools themselves (with their ids), as {@link #listStored} describes them. */
    public List<McpTool> permittedStoredTools(Caller caller) {
        return storedTools(caller).stream().filter(t -> ToolAccessPolicy.permits(caller, t)).toList();
    }

    /**
     * A stored tool by name if this caller may use it; empty whether it is missing or out of scope. HTTP tools are kept
     * briefly ({@link ShortCache}; any tool, key, user, role or server change on this node drops them): looking the tool
     * up was a third of a tool call's own cost. So is a name no stored tool has: every {@code code_execute} call asked
     * the database first (about 1 ms), since a stored tool of that name would come before the virtual one. Code tools are always read fresh, so a definer-mode
     * tool's code is checked against its pinned hash as stored now. The access policy is applied on every call either way.
     */
    @Transactional(Transactional.TxType.SUPPORTS) // a kept tool needs no transaction; a lookup opens one below
    public Optional<McpTool> findStored(Caller caller, String name) {
        return httpTools.get(new StoredName(caller.workspaceId(), name), this::loadUnlessAbsent, tool -> !tool.isCodeTool())
                .filter(t -> ToolAccessPolicy.permits(caller, t));
    }

    record StoredName(long workspaceId, String name) {}

    /** The stored tool of this name, or empty, from {@link #absentNames} when no tool had the name a moment ago. */
    private Optional<McpTool> loadUnlessAbsent(StoredName key) {
        return absentNames.get(key, k -> Optional.of(self.load(k)), Optional::isEmpty).flatMap(found -> found);
    }

    /** Through {@link #self}, so the class's transaction applies to the lookup (a plain call would bypass it). */
    Optional<McpTool> load(StoredName key) {
        return em.createNamedQuery(McpTool.BY_NAME, McpTool.class)
                .setParameter("workspaceId", key.workspaceId()).setParameter("name", key.name())
                .getResultStream().findFirst();
    }

    public Optional<ToolProvider.VirtualTool> findVirtual(Caller caller, String name) {
        for (ToolProvider provider : providers) {
            for (ToolProvider.VirtualTool tool : provider.virtualTools(caller)) {
                if (tool.name().equals(name)) {
                    return Optional.of(tool);
                }
            }
        }
        return Optional.empty();
    }

    private List<McpTool> storedTools(Caller caller) {
        Long serverId = caller.scope().serverId();
        if (serverId != null) {
            return em.createNamedQuery(McpTool.BY_SERVER, McpTool.class).setParameter("serverId", serverId).getResultList();
        }
        return em.createNamedQuery(McpTool.BY_WORKSPACE, McpTool.class).setParameter("workspaceId", caller.workspaceId()).getResultList();
    }
}
