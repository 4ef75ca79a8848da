package dev.amcp.gateway.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolAccessPolicy;
import dev.amcp.gateway.tools.entity.McpTool;
import java.lang.reflect.Field;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolAccessPolicyTest {

    static McpTool tool(long workspace, long server, String name, String mapping) {
        McpTool t = new McpTool(workspace, server, name);
        t.setEndpointMapping(JsonSupport.parseObject(mapping));
        return t;
    }

    static final McpTool READ = tool(1, 10, "read", "{\"method\":\"GET\",\"url\":\"http://x\"}");
    static final McpTool WRITE = tool(1, 10, "write", "{\"method\":\"POST\",\"url\":\"http://x\"}");
    static final McpTool CODE = tool(1, 10, "code", "{\"method\":\"code\",\"code\":\"return 1\"}");
    static final McpTool OTHER_SERVER = tool(1, 11, "other", "{\"method\":\"GET\",\"url\":\"http://x\"}");
    static final McpTool OTHER_WORKSPACE = tool(2, 20, "foreign", "{\"method\":\"GET\",\"url\":\"http://x\"}");

    static Caller caller(Set<String> caps, boolean allServers, Set<Long> servers) {
        return new Caller(1, 1L, 1L, "u", new RoleGrant(1, "r", caps, allServers, servers), CallScope.UNRESTRICTED);
    }

    @Test
    void viewerSeesReadsOnly() {
        Caller viewer = caller(Set.of(), true, Set.of());
        assertTrue(ToolAccessPolicy.permits(viewer, READ));
        assertFalse(ToolAccessPolicy.permits(viewer, WRITE));
    }

    @Test
    void memberMayWrite() {
        assertTrue(ToolAccessPolicy.permits(caller(Set.of(Capability.TOOLS_WRITE), true, Set.of()), WRITE));
    }

    @Test
    void roleScopeLimitsServers() {
        Caller scoped = caller(Set.of(Capability.TOOLS_WRITE), false, Set.of(10L));
        assertTrue(ToolAccessPolicy.permits(scoped, READ));
        assertFalse(ToolAccessPolicy.permits(scoped, OTHER_SERVER));
    }

    @Test
    void anotherWorkspaceIsNeverVisible() {
        assertFalse(ToolAccessPolicy.permits(caller(Set.of(Capability.ADMIN, Capability.TOOLS_WRITE), true, Set.of()), OTHER_WORKSPACE));
    }

    @Test
    void endpointScopesNarrow() {
        Caller admin = caller(Set.of(Capability.ADMIN, Capability.TOOLS_WRITE), true, Set.of());
        assertFalse(ToolAccessPolicy.permits(admin.withScope(CallScope.server(11)), READ));
        assertFalse(ToolAccessPolicy.permits(admin.withScope(CallScope.sharedEndpoint()), CODE));
        assertTrue(ToolAccessPolicy.permits(admin.withScope(CallScope.server(10)), CODE));
        Caller bridge = admin.withScope(new CallScope(10L, Set.of("read", "write"), true, false));
        assertTrue(ToolAccessPolicy.permits(bridge, READ));
        assertFalse(ToolAccessPolicy.permits(bridge, WRITE), "read-only scope hides writes even for admins");
        assertFalse(ToolAccessPolicy.permits(bridge, CODE));
    }

    @Test
    void disabledToolsAreHidden() throws Exception {
        McpTool t = tool(1, 10, "off", "{\"method\":\"GET\",\"url\":\"http://x\"}");
        t.setEnabled(false);
        assertFalse(ToolAccessPolicy.permits(caller(Set.of(Capability.ADMIN), true, Set.of()), t));
    }

    @Test
    void codeToolsAreReadOnlyUnlessTheyMayWrite() {
        assertTrue(CODE.isReadOnly());
        assertFalse(tool(1, 10, "cw", "{\"method\":\"code\",\"code\":\"\",\"allowWrites\":true}").isReadOnly());
    }
}
