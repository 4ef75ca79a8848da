package dev.amcp.gateway.it;

import static dev.amcp.gateway.it.EmptyInstallToCodeExecuteIT.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.mcp.control.McpProtocol;
import dev.amcp.gateway.sources.control.UpstreamRefreshes;
import dev.amcp.gateway.tools.control.McpUpstreamInvoker;
import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Discovery over several pages, the scheduled refresh and the call time-out, with the gateway's own {@code /mcp} as
 * the upstream MCP server (server-everything lists its tools on one page). This deployment lists two tools per page,
 * refreshes every upstream each minute and waits 3 s for an upstream; the upstream is reached under
 * {@code AMCP_UPSTREAM_SELF} with a static credential holding the API key of the source workspace's admin.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class UpstreamDiscoveryIT {

    static final String APP = "/amcp-upstream-discovery";
    /** New for every test run, so earlier runs' keys in the same database never clash with it. */
    static final String SOURCE_KEY = "amcp_it-self-" + UUID.randomUUID();

    @Deployment(testable = false)
    static WebArchive gateway() {
        return Deployments.gateway("amcp-upstream-discovery", false, Map.of(
                OperatorBootstrap.USERNAME, Operators.USERNAME, OperatorBootstrap.PASSWORD, Operators.PASSWORD,
                OperatorBootstrap.API_KEY, Operators.API_KEY,
                McpProtocol.PAGE_SIZE_SETTING, "2",
                UpstreamRefreshes.SETTING, "1",
                McpUpstreamInvoker.TIMEOUT_SETTING, "3000",
                "AMCP_UPSTREAM_SELF", McpHttp.base() + APP,
                "AMCP_CREDENTIAL_SELF_VALUE", "Bearer " + SOURCE_KEY,
                KeyedWorkspaceSeedResource.SETTING, SOURCE_KEY));
    }

    /** The source's tools by name, with their ids; empty until {@link #seedSource()} ran. */
    private static final Map<String, Long> SOURCE_TOOLS = new java.util.concurrent.ConcurrentHashMap<>();

    /** The source workspace, seeded once: five quick tools and one that sleeps as long as it is asked. */
    static synchronized void seedSource() throws Exception {
        if (SOURCE_TOOLS.isEmpty()) {
            ok(send("POST", "/it-seed/keyed-workspace", null, null), 200);
            for (int i = 1; i <= 5; i++) {
                created(send("POST", "/api/tools", SOURCE_KEY, sourceTool("t" + i, "Tool " + i)));
            }
            created(send("POST", "/api/tools", SOURCE_KEY, "{\"server\":\"main\",\"name\":\"slow\",\"description\":\"Sleeps\","
                    + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}}},"
                    + "\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/slow\",\"query\":{\"ms\":\"ms\"}}}"));
        }
    }

    private static void created(HttpResponse<String> response) {
        ok(response, 201);
        JsonObject tool = OperatorIT.json(response);
        SOURCE_TOOLS.put(tool.getString("name"), tool.getJsonNumber("id").longValue());
    }

    /** A new workspace with the source registered as upstream {@code self}; answers its admin key and the registration. */
    static Map.Entry<String, JsonObject> targetWithTheSource() throws Exception {
        seedSource();
        String target = EmptyInstallToCodeExecuteIT.workspaceWithCodeMode(APP, "disc-" + OperatorIT.suffix());
        HttpResponse<String> registered = send("POST", "/api/upstream-servers", target,
                "{\"server\":\"main\",\"name\":\"self\",\"url\":\"${AMCP_UPSTREAM_SELF}/mcp/main\",\"prefix\":\"s_\",\"credential\":\"SELF\"}");
        ok(registered, 201);
        return Map.entry(target, OperatorIT.json(registered));
    }

    /**
     * Six tools on the source server make three pages of {@code tools/list}; registration reads them all. A change
     * at the source (a description edited, a tool deleted) is then staged by the schedule alone: no call has opened
     * a connection that could hear {@code list_changed}, so the flag stays off, and nothing changes before an admin
     * applies it.
     */
    @Test
    void registrationReadsEveryPageAndTheScheduleStagesTheSourcesChanges() throws Exception {
        var source = targetWithTheSource();
        String target = source.getKey();
        JsonObject registered = source.getValue();
        assertEquals(List.of("s_slow", "s_t1", "s_t2", "s_t3", "s_t4", "s_t5"), UpstreamMcpIT.names(registered, "tools"),
                "every page of the upstream's tools/list");
        long id = registered.getJsonNumber("id").longValue();
        String toolsBefore = send("GET", "/api/tools", target, null).body();

        // the ids PUT and DELETE take, as the source's tool list gives them
        Map<String, Long> sourceIds = OperatorIT.json(send("GET", "/api/tools", SOURCE_KEY, null)).getJsonArray("tools")
                .getValuesAs(JsonObject.class).stream().collect(Collectors.toMap(t -> t.getString("name"), t -> t.getJsonNumber("id").longValue()));
        assertEquals(SOURCE_TOOLS, sourceIds);
        ok(send("PUT", "/api/tools/" + sourceIds.get("t1"), SOURCE_KEY, sourceTool("t1", "Tool one, edited")), 200);
        ok(send("DELETE", "/api/tools/" + sourceIds.get("t5"), SOURCE_KEY, null), 204);

        JsonObject staged = null;
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150); System.nanoTime() < deadline; ) {
            HttpResponse<String> r = send("GET", "/api/upstream-servers/" + id + "/refresh", target, null);
            if (r.statusCode() == 200 && OperatorIT.json(r).getJsonArray("removed").size() == 1) {
                staged = OperatorIT.json(r);
                break;
            }
            assertTrue(r.statusCode() == 404 || r.statusCode() == 200, r.body());
            Thread.sleep(1000); // the schedule runs once a minute
        }
        assertTrue(staged != null, "the schedule staged the source's changes within 150 s");
        assertFalse(staged.getBoolean("listChanged"), "staged by the schedule, not by a notification: " + staged);
        assertEquals(List.of("s_t5"), UpstreamMcpIT.names(staged, "removed"));
        Map<String, JsonObject> rows = staged.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(r -> r.getString("name"), Function.identity()));
        assertEquals("changed", rows.get("s_t1").getString("status"), staged.toString());
        assertEquals("unchanged", rows.get("s_t2").getString("status"), staged.toString());
        assertEquals(toolsBefore, send("GET", "/api/tools", target, null).body(), "staged only: no tool changed");
    }

    /** An upstream that does not answer in time: the caller gets a tool error naming the setting, and the next call works. */
    @Test
    void anUpstreamCallThatOutlastsTheTimeOutIsAToolError() throws Exception {
        String target = targetWithTheSource().getKey();
        HttpResponse<String> slow = McpHttp.post(APP + "/mcp/main", target, McpHttp.request(1, "tools/call", "{\"name\":\"s_slow\",\"arguments\":{\"ms\":8000}}"));
        assertEquals(200, slow.statusCode(), slow.body());
        assertTrue(slow.body().contains("\"isError\":true"), slow.body());
        assertTrue(slow.body().contains("did not answer within 3000 ms (" + McpUpstreamInvoker.TIMEOUT_SETTING + ")"), slow.body());
        assertFalse(slow.body().contains("slept"), slow.body());

        HttpResponse<String> quick = McpHttp.post(APP + "/mcp/main", target, McpHttp.request(2, "tools/call", "{\"name\":\"s_t2\",\"arguments\":{\"id\":\"after\"}}"));
        assertTrue(quick.body().contains("\"isError\":false") && quick.body().contains("after"), quick.body());
    }

    static String sourceTool(String name, String description) {
        return "{\"server\":\"main\",\"name\":\"" + name + "\",\"description\":\"" + description + "\","
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}},"
                + "\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}}";
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
