package dev.amcp.gateway.it;

import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.control.ProposalService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.FirstOperator;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.UUID;

/**
 * Test-only (never in the product WAR): seeds a workspace with a server and an admin, a member and a viewer who can
 * sign in to the editor, for browser tests that run outside the server. The code-mode variant adds an HTTP tool
 * {@code echo}, a code tool {@code echo_code} over it, and two pending proposals: {@code echo_code} (a clash, with a
 * diff) and {@code echo_proxy}.
 */
@Path("/it-seed/editor-tenant")
@RequestScoped
public class EditorSeedResource {

    public static final String PASSWORD = "correct-horse-battery";

    @Inject
    WorkspaceService workspaces;

    @Inject
    ToolService tools;

    @Inject
    CodeToolService codeTools;

    @Inject
    ProposalService proposals;

    @Inject
    LicenseService licenses;

    @Inject
    FirstOperator firstOperator;

    @Inject
    dev.amcp.gateway.workspace.control.ApiKeyService keys;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seed() {
        return tenant().build().toString();
    }

    @POST
    @Path("code")
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seedCodeMode() {
        JsonObject seeded = tenant().build();
        Caller admin = adminOf(seeded);
        tools.createHttpTool(admin, new ToolDraft("main", "echo", null, "Echoes an id",
                JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"q\":{\"type\":\"string\"}},\"required\":[\"id\"]}"),
                JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"description\":\"the id echoed\"}}}"),
                JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\",\"query\":{\"q\":\"q\"}}")));
        codeTools.create(admin, new CodeToolDraft(new ToolDraft("main", "echo_code", null, "Echoes once", null, null, null),
                new CodeToolSpec("const r = await amcp.run('echo', {id: '1'});\nreturn r.id;", List.of("echo"), CodeToolSpec.INVOKER, false)));
        long serverId = workspaces.findServer(admin.workspaceId(), "main").orElseThrow().getId();
        proposals.propose(admin, serverId, JsonSupport.parseObject("{\"name\":\"echo_code\",\"description\":\"Echoes twice\","
                + "\"code\":\"const r = await amcp.run('echo', {id: '1'});\\nconst s = await amcp.run('echo', {id: '2'});\\nreturn r.id + s.id;\","
                + "\"uses\":[\"echo\"]}"));
        proposals.propose(admin, serverId, JsonSupport.parseObject("{\"name\":\"echo_proxy\",\"description\":\"Echoes the input\","
                + "\"code\":\"return (await amcp.run('echo', {id: input.id})).id;\",\"uses\":[\"echo\"],"
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}}"));
        return seeded.toString();
    }

    /**
     * The scoped variant: a second server {@code other}, the viewer's role narrowed to {@code main}, and on {@code main}
     * an HTTP read whose mapping carries a secret header, a write, and a code tool whose code carries a marker; on
     * {@code other} an HTTP read. Answers the tools' ids by name.
     */
    @POST
    @Path("scoped")
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String seedScoped() {
        JsonObject seeded = tenant().build();
        Caller admin = adminOf(seeded);
        long main = workspaces.findServer(admin.workspaceId(), "main").orElseThrow().getId();
        workspaces.createServer(admin.workspaceId(), "other", "Other", "Another team's server");
        Role viewer = workspaces.role(admin.workspaceId(), Role.VIEWER);
        workspaces.updateRole(viewer.getId(), viewer.getCapabilities(), false, java.util.Set.of(main));
        tools.createHttpTool(admin, new ToolDraft("main", "main_read", null, "A read on main", null, null,
                JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/secret-path\","
                        + "\"headers\":{\"X-Secret\":\"s3cret-header-value\"}}")));
        tools.createHttpTool(admin, new ToolDraft("main", "main_write", null, "A write on main", null, null,
                JsonSupport.parseObject("{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/write-path\"}")));
        tools.createHttpTool(admin, new ToolDraft("other", "other_read", null, "A read on other", null, null,
                JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/other-path\"}")));
        codeTools.create(admin, new CodeToolDraft(new ToolDraft("main", "main_code", null, "Code on main", null, null, null),
                new CodeToolSpec("// SECRET_CODE_MARKER\nreturn (await amcp.run('main_read', {})).id;", List.of("main_read"),
                        CodeToolSpec.INVOKER, false)));
        var ids = Json.createObjectBuilder();
        tools.tools(admin.workspaceId()).forEach(t -> ids.add(t.getName(), t.getId())); // the query flushes, so ids are set
        JsonObjectBuilder answer = Json.createObjectBuilder(seeded).add("tools", ids);
        return answer.build().toString();
    }

    /**
     * The tests' operator ({@link Operators}), created as the bootstrap creates it when the database has no operator
     * yet, so the browser can sign in as the instance's operator.
     */
    @POST
    @Path("operator")
    @Produces(MediaType.APPLICATION_JSON)
    public String operator() {
        firstOperator.createUnlessOneExists(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY);
        return Json.createObjectBuilder().add("username", Operators.USERNAME).add("password", Operators.PASSWORD).build().toString();
    }

    /** Back to the community terms whatever a test installed (licenses are per gateway, not per workspace). */
    @DELETE
    @Path("license")
    @Transactional
    public void uninstallLicense() {
        licenses.uninstall(Operators.CALLER);
    }

    private Caller adminOf(JsonObject seeded) {
        return workspaces.callerForUser(seeded.getString(Role.ADMIN)).orElseThrow();
    }

    private JsonObjectBuilder tenant() {
        String slug = "ed-" + UUID.randomUUID().toString().substring(0, 8);
        var ws = workspaces.createWorkspace(slug, "Editor test " + slug);
        workspaces.createServer(ws.getId(), "main", "Main", "The test server");
        var result = Json.createObjectBuilder().add("workspace", slug).add("password", PASSWORD);
        for (String role : new String[] {Role.ADMIN, Role.MEMBER, Role.VIEWER}) {
            var user = workspaces.createUser(ws.getId(), slug + "-" + role, role, role, PASSWORD);
            result.add(role, user.getUsername());
            if (Role.ADMIN.equals(role)) { // for the tests that call MCP as the person signed in to the editor
                result.add("adminKey", keys.issue(user.getId(), "editor test", null).plaintext());
            }
        }
        return result;
    }
}
