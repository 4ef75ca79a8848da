package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.FirstOperator;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;

/**
 * Test-only (never in the product WAR): a fresh workspace for the single sign-on tests, with an admin (password and API
 * key) and a member, and the tests' operator ({@link Operators}). Names are new on every call, so mappings and
 * provisioned people of earlier runs in the same database never meet them.
 */
@Path("/it-seed/sso")
@RequestScoped
public class SsoSeedResource {

    public static final String PASSWORD = "correct-horse-battery";

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService keys;

    @Inject
    FirstOperator firstOperator;

    @jakarta.persistence.PersistenceContext(unitName = "amcp")
    jakarta.persistence.EntityManager em;

    /**
     * Forgets every failed sign-in: the throttle counts in the database, which all deployments of a test run share, so
     * the throttle tests start from nothing and leave no lock on 127.0.0.1 for the classes after them.
     */
    @jakarta.ws.rs.DELETE
    @Path("throttle")
    @Transactional
    public void forgetFailedSignIns() {
        em.createNativeQuery("delete from login_failures").executeUpdate();
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seed() {
        firstOperator.createUnlessOneExists(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY);
        forgetFailedSignIns();
        String slug = "sso-" + UUID.randomUUID().toString().substring(0, 8);
        var ws = workspaces.createWorkspace(slug, "SSO test " + slug);
        workspaces.createServer(ws.getId(), "main", "Main", "The test server");
        var admin = workspaces.createUser(ws.getId(), slug + "-admin", "Admin", Role.ADMIN, PASSWORD);
        var member = workspaces.createUser(ws.getId(), slug + "-member", "Member", Role.MEMBER, PASSWORD);
        return Json.createObjectBuilder().add("workspace", slug).add("password", PASSWORD)
                .add("admin", admin.getUsername()).add("member", member.getUsername())
                .add("adminKey", keys.issue(admin.getId(), "sso-test", null).plaintext())
                .add("operator", Operators.USERNAME).add("operatorPassword", Operators.PASSWORD).build().toString();
    }
}
