package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The master key on a running gateway: secrets stored under key A are read after a restart with key B and A as the
 * previous key, which re-wraps the data keys and leaves every ciphertext as it was; and a gateway without a master key
 * serves, but refuses to store a secret, naming the setting.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MasterKeyIT {

    /** Keys of this test alone: a rotation re-wraps only what these wrapped, never the other tests' data keys. */
    static final String KEY_A = "bWFzdGVyLWtleS1JVC1hLTAwMDAwMDAwMDAwMDAwMDA=";
    static final String KEY_B = "bWFzdGVyLWtleS1JVC1iLTExMTExMTExMTExMTExMTE=";
    /** Wraps nothing the others stored: a node started with it alone cannot open their secrets. */
    static final String KEY_C = "bWFzdGVyLWtleS1JVC1jLTIyMjIyMjIyMjIyMjIyMjI=";

    @ArquillianResource
    Deployer deployer;

    static Map<String, String> withOperator(Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY, "AMCP_CODE_TIMEOUT_MS", "20000"));
        settings.putAll(more);
        return settings;
    }

    @Deployment(name = "key-a", order = 1, testable = false)
    static WebArchive keyA() {
        return Deployments.gateway("amcp-key-a", false, withOperator(Map.of("AMCP_MASTER_KEY", KEY_A)));
    }

    @Deployment(name = "key-b", managed = false, testable = false)
    static WebArchive keyB() {
        return Deployments.gateway("amcp-key-b", false, withOperator(Map.of("AMCP_MASTER_KEY", KEY_B, "AMCP_MASTER_KEY_PREVIOUS", KEY_A)));
    }

    @Deployment(name = "key-c", managed = false, testable = false)
    static WebArchive keyC() {
        return Deployments.gateway("amcp-key-c", false, withOperator(Map.of("AMCP_MASTER_KEY", KEY_C)));
    }

    @Deployment(name = "no-key", order = 2, testable = false)
    static WebArchive noKey() {
        Map<String, String> settings = withOperator(Map.of());
        settings.put("AMCP_MASTER_KEY", null); // no master key at all
        return Deployments.gateway("amcp-no-key", false, settings);
    }

    static HttpResponse<String> send(String context, String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, context + path, key, body);
    }

    static JsonObject json(HttpResponse<String> r, int status) {
        assertEquals(status, r.statusCode(), r.body());
        return McpHttp.parse(r.body()).asJsonObject();
    }

    static String tenant(String context) throws Exception {
        HttpResponse<String> r = McpHttp.HTTP.send(HttpRequest.newBuilder(URI.create(McpHttp.base() + context + "/it-code-setup/tenant"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        return json(r, 200).getString("key");
    }

    static String headersSeen(String context, String key) {
        try (McpSyncClient client = McpHttp.sdkClient(context + "/mcp/demo", key)) {
            client.initialize();
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("vault_headers", Map.of()));
            assertTrue(!Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
            return String.valueOf(((Map<?, ?>) r.structuredContent()).get("xApiKey"));
        }
    }

    static List<JsonObject> rows(String context, String table) throws Exception {
        return json(send(context, "GET", "/it-db-scan/" + table, null, null), 200).getJsonArray("rows").getValuesAs(JsonObject.class);
    }

    /** Under {@code key}'s workspace: an upstream whose header credential is {@code secret}, and a tool under it. */
    static long vaultTool(String context, String key, String secret) throws Exception {
        WorkspaceUpstreamsIT.egressRule(context, "127.0.0.1:" + WorkspaceUpstreamsIT.PORT);
        long upstream = json(send(context, "POST", "/api/upstreams", key, Json.createObjectBuilder().add("name", "vault")
                .add("baseUrl", "http://127.0.0.1:" + WorkspaceUpstreamsIT.PORT + context + "/it-upstream").build().toString()), 201)
                .getJsonNumber("id").longValue();
        json(send(context, "PUT", "/api/upstreams/" + upstream + "/credential", key, Json.createObjectBuilder().add("kind", "header")
                .add("header", "X-Api-Key").add("value", secret).build().toString()), 200);
        json(send(context, "POST", "/api/tools", key, Json.createObjectBuilder().add("server", "demo").add("name", "vault_headers")
                .add("endpointMapping", Json.createObjectBuilder().add("method", "GET").add("upstream", "vault").add("url", "/headers"))
                .build().toString()), 201);
        return upstream;
    }

    /**
     * A node whose master key wraps none of the stored data keys refuses a call that needs a secret with a tool error
     * naming the settings, and logs one warning for that data key however often it is called: no FFDC incident, for
     * this refusal or any other expected refusal that left a transactional method (an input the egress ceiling refuses,
     * say). Liberty notes every incident it writes with FFDC1015I, once per kind of exception and place.
     */
    @Test
    void aMasterKeyThatOpensNothingStoredRefusesTheCallWithOneLogLineAndNoIncident() throws Exception {
        String a = "/amcp-key-a";
        String key = tenant(a);
        long upstream = vaultTool(a, key, "unopenable-" + UUID.randomUUID());
        String dataKey = rows(a, "upstream_credentials").stream().filter(r -> r.getString("upstream_id").equals(String.valueOf(upstream)))
                .findFirst().orElseThrow().getString("data_key_id");
        HttpResponse<String> outside = send(a, "POST", "/api/upstreams", key, "{\"name\":\"far\",\"baseUrl\":\"https://far.example/api\"}");
        assertEquals(400, outside.statusCode(), outside.body());

        deployer.deploy("key-c");
        try {
            String c = "/amcp-key-c";
            for (int call = 0; call < 3; call++) {
                try (McpSyncClient client = McpHttp.sdkClient(c + "/mcp/demo", key)) {
                    client.initialize();
                    McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("vault_headers", Map.of()));
                    assertTrue(Boolean.TRUE.equals(r.isError()), String.valueOf(r.content()));
                    String text = ((McpSchema.TextContent) r.content().get(0)).text();
                    assertTrue(text.contains("the credential of upstream 'vault' cannot be opened: the secret's data key " + dataKey
                            + " is wrapped by master key ") && text.contains("which this node does not have (AMCP_MASTER_KEY, AMCP_MASTER_KEY_PREVIOUS)"), text);
                }
            }
            assertEquals(1, ServerLog.lines("A stored secret cannot be opened on this node, so the calls that need it are refused: the secret's data key "
                    + dataKey + " is wrapped").size(), "one warning for the data key, however many calls");
            List<String> refusals = ServerLog.incidents().stream().filter(l -> l.contains("CannotOpen") || l.contains("the secret's data key")
                    || l.contains("InvalidInputException") || l.contains("egress ceiling")).toList();
            assertEquals(List.of(), refusals, "expected refusals are no FFDC incidents");
        } finally {
            deployer.undeploy("key-c");
        }
    }

    @Test
    void secretsStoredUnderOneMasterKeyAreReadAfterARestartWithTheNextAndNoCiphertextChanges() throws Exception {
        String a = "/amcp-key-a";
        String secret = "rotate-me-" + UUID.randomUUID();
        String key = tenant(a);
        long upstream = vaultTool(a, key, secret);
        assertEquals(TestUpstream.sha256(secret), headersSeen(a, key));
        JsonObject credential = rows(a, "upstream_credentials").stream()
                .filter(r -> r.getString("upstream_id").equals(String.valueOf(upstream))).findFirst().orElseThrow();
        JsonObject dataKey = rows(a, "data_keys").stream().filter(r -> r.getString("id").equals(credential.getString("data_key_id")))
                .findFirst().orElseThrow();

        deployer.deploy("key-b"); // a restart with B, and A as the previous key
        try {
            String b = "/amcp-key-b";
            // The first request once the application has started is a call that needs the re-wrapped secret.
            assertEquals(TestUpstream.sha256(secret), headersSeen(b, key), "the secret opens under B at once");
            JsonObject rewrapped = rows(b, "data_keys").stream().filter(r -> r.getString("id").equals(dataKey.getString("id")))
                    .findFirst().orElseThrow();
            assertNotEquals(dataKey.getString("master_key_id"), rewrapped.getString("master_key_id"), "now wrapped by B");
            assertNotEquals(dataKey.getString("wrapped"), rewrapped.getString("wrapped"));
            assertNotEquals("null", rewrapped.getString("rewrapped_at"));
            JsonObject after = rows(b, "upstream_credentials").stream()
                    .filter(r -> r.getString("upstream_id").equals(String.valueOf(upstream))).findFirst().orElseThrow();
            assertEquals(credential.getString("ciphertext"), after.getString("ciphertext"), "no secret is re-encrypted");
        } finally {
            deployer.undeploy("key-b");
        }
    }

    @Test
    void withoutAMasterKeyTheGatewayServesAndRefusesToStoreASecretNamingTheSetting() throws Exception {
        String context = "/amcp-no-key";
        String key = tenant(context);
        try (McpSyncClient client = McpHttp.sdkClient(context + "/mcp/demo", key)) { // it serves as usual
            client.initialize();
            assertTrue(!Boolean.TRUE.equals(client.callTool(new McpSchema.CallToolRequest("customer_get", Map.of("customerId", 7))).isError()));
        }
        WorkspaceUpstreamsIT.egressRule(context, "127.0.0.1:" + WorkspaceUpstreamsIT.PORT);
        long upstream = json(send(context, "POST", "/api/upstreams", key, Json.createObjectBuilder().add("name", "plain")
                .add("baseUrl", WorkspaceUpstreamsIT.SHOP_BASE).build().toString()), 201).getJsonNumber("id").longValue();
        HttpResponse<String> refused = send(context, "PUT", "/api/upstreams/" + upstream + "/credential", key,
                "{\"kind\":\"header\",\"value\":\"never-stored\"}");
        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("Secrets cannot be stored: the gateway has no master key: the operator sets AMCP_MASTER_KEY (or "
                + "AMCP_MASTER_KEY_FILE) on every node"), refused.body());
        assertEquals(List.of(), json(send(context, "POST", "/it-db-scan", null, "never-stored"), 200).getJsonArray("found").getValuesAs(
                jakarta.json.JsonString.class), "nothing half-written");
        assertTrue(json(send(context, "GET", "/api/upstreams/" + upstream, key, null), 200).get("credential") == null);
    }
}
