package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.Set;

/**
 * Test-only set-up over HTTP for client-side tests (the MCP SDK client and the conformance suite run outside the
 * server): builds a fresh workspace with tools and answers its keys. Exists only in the test deployment.
 */
@Path("/it-setup")
@RequestScoped
public class McpItSetup {

    static final String ECHO_SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"q\":{\"type\":\"string\"}},\"required\":[\"id\"],\"additionalProperties\":false}";
    static final String ECHO_OUTPUT = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},\"q\":{\"type\":\"string\"}}}";

    @Inject
    Fixtures fixtures;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ToolService tools;

    @Inject
    Store store;

    @Inject
    dev.amcp.gateway.demo.control.DemoSeeder demo;

    @Inject
    dev.amcp.gateway.workspace.control.FirstOperator firstOperator;

    /** The tests' operator ({@link Operators#API_KEY}), unless the instance has one already, for the operator's REST calls. */
    @POST
    @Path("operator")
    public void operator() {
        firstOperator.createUnlessOneExists(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY);
    }

    /** Writes what no service offers yet (a code tool), in its own transaction. */
    @jakarta.enterprise.context.ApplicationScoped
    @Transactional
    public static class Store {
        @PersistenceContext(unitName = "amcp")
        EntityManager em;

        public void persist(Object entity) {
            em.persist(entity);
        }
    }

    /**
     * Server "main": echo_get (GET, output schema), echo_post (POST), upstream_fail (GET, upstream 500), code_summary
     * (a code tool) and the virtual code_execute and test_tool_with_progress. Server "other": other_echo. The viewer's
     * role may use "main" only.
     */
    @POST
    @Path("mcp-tenant")
    @Produces("application/json")
    public String tenant() {
        Fixtures.Tenant t = fixtures.tenant();
        tools.createHttpTool(t.admin(), new ToolDraft("main", "echo_get", "Echo by id", "Echoes an id and a query",
                JsonSupport.parseObject(ECHO_SCHEMA), JsonSupport.parseObject(ECHO_OUTPUT),
                JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\",\"query\":{\"q\":\"q\"}}")));
        fixtures.httpTool(t, "main", "echo_post", null, "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        fixtures.httpTool(t, "main", "upstream_fail", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/fail\"}");
        McpServerConfig other = workspaces.createServer(t.workspace().getId(), "other", "Other", null);
        fixtures.httpTool(t, "other", "other_echo", ECHO_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        McpTool code = new McpTool(t.workspace().getId(), t.server().getId(), "code_summary");
        code.setDescription("A saved code tool");
        code.setEndpointMapping(JsonSupport.parseObject("{\"method\":\"code\",\"code\":\"return 1\",\"uses\":[],\"runAs\":\"invoker\"}"));
        store.persist(code);
        Role viewer = workspaces.role(t.workspace().getId(), Role.VIEWER);
        workspaces.updateRole(viewer.getId(), Set.of(), false, Set.of(t.server().getId()));
        ItToolProvider.enable(t.workspace().getId(), ItToolProvider.CODE_EXECUTE, ItToolProvider.PROGRESS);
        return Json.createObjectBuilder().add("workspace", t.workspace().getSlug()).add("workspaceId", t.workspace().getId())
                .add("otherServerId", other.getId())
                .add("adminKey", t.adminKey()).add("memberKey", t.memberKey()).add("viewerKey", t.viewerKey())
                .build().toString();
    }

    /** A workspace seeded as the quick start seeds the demo: its server "demo" and nothing of the tests'. */
    @POST
    @Path("demo-tenant")
    @Produces("application/json")
    public String demoTenant() {
        var seeded = demo.seed("demo-" + java.util.UUID.randomUUID().toString().substring(0, 8));
        return Json.createObjectBuilder().add("workspace", seeded.workspace().getSlug()).add("adminKey", seeded.apiKey()).build().toString();
    }

    /** Server "conf" with the fixture tools the MCP conformance suite calls. */
    @POST
    @Path("conformance-tenant")
    @Produces("application/json")
    public String conformanceTenant() {
        Fixtures.Tenant t = fixtures.tenant();
        workspaces.createServer(t.workspace().getId(), "conf", "Conformance", null);
        fixtures.httpTool(t, "conf", "test_simple_text", null,
                "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT_SETUP}/simple-text\"}");
        fixtures.httpTool(t, "conf", "test_error_handling", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/fail\"}");
        // SEP-1613 and, for 2026-07-28, SEP-2106: $anchor in $defs, allOf/anyOf, if/then/else
        fixtures.httpTool(t, "conf", "json_schema_2020_12_tool", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                + "\"type\":\"object\",\"$defs\":{\"address\":{\"$anchor\":\"addressDef\",\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"},"
                + "\"city\":{\"type\":\"string\"}}}},\"properties\":{\"name\":{\"type\":\"string\"},\"address\":{\"$ref\":\"#/$defs/address\"},"
                + "\"contactMethod\":{\"type\":\"string\",\"enum\":[\"phone\",\"email\"]},\"phone\":{\"type\":\"string\"},\"email\":{\"type\":\"string\"}},"
                + "\"allOf\":[{\"anyOf\":[{\"required\":[\"phone\"]},{\"required\":[\"email\"]}]}],"
                + "\"if\":{\"properties\":{\"contactMethod\":{\"const\":\"phone\"}},\"required\":[\"contactMethod\"]},"
                + "\"then\":{\"required\":[\"phone\"]},\"else\":{\"required\":[\"email\"]},"
                + "\"additionalProperties\":false}", "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        // SEP-2243 (2026-07-28): an argument that travels in an Mcp-Param-Region header too
        fixtures.httpTool(t, "conf", "test_header_param", "{\"type\":\"object\",\"properties\":{\"region\":"
                + "{\"type\":\"string\",\"x-mcp-header\":\"Region\"}},\"required\":[\"region\"]}",
                "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        ItToolProvider.enable(t.workspace().getId(), ItToolProvider.PROGRESS, ItToolProvider.MISSING_CAPABILITY,
                ItToolProvider.STREAMING_ELICITATION, ItToolProvider.LOGGING, ItToolProvider.TRIGGER_TOOL_CHANGE);
        return Json.createObjectBuilder().add("workspace", t.workspace().getSlug()).add("adminKey", t.adminKey()).build().toString();
    }

    /** The upstream of test_simple_text. */
    @GET
    @Path("simple-text")
    @Produces("application/json")
    public String simpleText() {
        return "{\"text\":\"This is a simple text response for testing.\"}";
    }
}
