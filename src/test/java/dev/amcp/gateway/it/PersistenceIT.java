package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.governance.entity.License;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.Set;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Entity round trips through JPA on the server's real database (H2 or PostgreSQL), JSON columns included. */
@ExtendWith(ArquillianExtension.class)
class PersistenceIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    private <T> T inTx(java.util.function.Function<EntityManager, T> work) {
        return fixtures.inTx(work);
    }

    @Test
    void toolJsonColumnsRoundTrip() throws Exception {
        var t = fixtures.tenant();
        var mapping = JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"http://x/{id}\",\"query\":{\"q\":\"q\"},\"headers\":{\"A\":\"ü\"}}");
        var schema = JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}");
        long id = inTx(em -> {
            McpTool tool = new McpTool(t.workspace().getId(), t.server().getId(), "rt");
            tool.setEndpointMapping(mapping);
            tool.setInputSchema(schema);
            em.persist(tool);
            em.flush();
            return tool.getId();
        });
        McpTool back = inTx(em -> em.find(McpTool.class, id));
        assertEquals(mapping, back.getEndpointMapping());
        assertEquals(schema, back.getInputSchema());
        assertEquals("GET", back.getMethod());
        assertTrue(back.isReadOnly());
        assertNotNull(back.getCreatedAt());
    }

    @Test
    void roleCapabilitiesAndScopeRoundTrip() throws Exception {
        var t = fixtures.tenant();
        long roleId = inTx(em -> {
            Role role = new Role(t.workspace().getId(), "auditor", false, Set.of("inlineCode", "tools.write"));
            role.setAllServers(false);
            role.setServerIds(Set.of(t.server().getId()));
            em.persist(role);
            em.flush();
            return role.getId();
        });
        Role back = inTx(em -> em.find(Role.class, roleId));
        assertEquals(Set.of("inlineCode", "tools.write"), back.getCapabilities());
        assertEquals(Set.of(t.server().getId()), back.getServerIds());
        assertEquals(false, back.toGrant().mayUseServer(t.server().getId() + 1000));
    }

    @Test
    void serverCodeModeDefaultsOff() throws Exception {
        var t = fixtures.tenant();
        McpServerConfig back = inTx(em -> em.find(McpServerConfig.class, t.server().getId()));
        assertEquals(McpServerConfig.CodeMode.OFF, back.getCodeMode());
    }

    @Test
    void codeRunSuggestionAndLicenseRoundTrip() throws Exception {
        var t = fixtures.tenant();
        var trace = JsonSupport.parseObject("{\"calls\":[{\"tool\":\"a\",\"ms\":3,\"outcome\":\"ok\"}]}");
        long runId = inTx(em -> {
            CodeRun run = new CodeRun("run-" + System.nanoTime(), t.workspace().getId(), true, "invoker", "viewer",
                    "0".repeat(64), Instant.now());
            run.finish("SUCCESS", null, trace, 1, 10, 20, 0, Instant.now());
            em.persist(run);
            em.flush();
            return run.getId();
        });
        long suggestionId = inTx(em -> {
            SkillSuggestion s = new SkillSuggestion(t.workspace().getId(), t.server().getId(), "code_tool", "top_customers",
                    JsonSupport.parseObject("{\"code\":\"return 1\",\"uses\":[\"a\"]}"));
            em.persist(s);
            em.flush();
            return s.getId();
        });
        long licenseId = inTx(em -> {
            License l = new License("trial", "ACME", "{}", "sig", JsonSupport.parseObject("{\"maxCodeTools\":3}"), Instant.now(), null);
            em.persist(l);
            em.flush();
            return l.getId();
        });
        CodeRun run = inTx(em -> em.find(CodeRun.class, runId));
        assertEquals("SUCCESS", run.getStatus());
        assertEquals(trace, run.getBridgeTrace());
        SkillSuggestion s = inTx(em -> em.find(SkillSuggestion.class, suggestionId));
        assertEquals("pending", s.getStatus());
        assertEquals("return 1", s.getPayload().getString("code"));
        License l = inTx(em -> em.find(License.class, licenseId));
        assertEquals(3, l.getFeatures().getInt("maxCodeTools"));
        inTx(em -> {
            em.remove(em.find(License.class, licenseId));
            return null;
        });
    }
}
