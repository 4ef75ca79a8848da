package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole chain over REST, as an operator and an admin would run it on an empty install: the bootstrap operator
 * creates a workspace with its admin; the admin creates a server in inline code mode and a tool, grants
 * {@code inlineCode} to the member role and adds a member; the member mints a key and runs {@code code_execute}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EmptyInstallToCodeExecuteIT {

    static final String APP = "/amcp-e2e";

    @Deployment(testable = false)
    static WebArchive gateway() {
        Deployments.requireRunner();
        return Deployments.gateway("amcp-e2e", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY));
    }

    @Test
    void operatorWorkspaceAdminRoleUserKeyAndCodeExecute() throws Exception {
        String slug = "e2e-" + OperatorIT.suffix();
        String admin = workspaceWithCodeMode(APP, slug);
        String key = OperatorIT.json(send("POST", "/api/users/" + slug + "-ada/keys", admin, "{\"name\":\"Ada\"}")).getString("key");

        HttpResponse<String> call = McpHttp.post(APP + "/mcp/main", key, McpHttp.request(2, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"const r = await amcp.run('echo', {id: 'e2e'}); return r.id + '!';\"}}"));
        assertEquals(200, call.statusCode(), call.body());
        assertTrue(call.body().contains("e2e!") && call.body().contains("\"isError\":false"), call.body());

        // and without the capability, the same member gets no code_execute
        ok(send("PUT", "/api/roles/member", admin, "{\"capabilities\":[\"tools.write\"]}"), 200);
        HttpResponse<String> refused = McpHttp.post(APP + "/mcp/main", key, McpHttp.request(3, "tools/call",
                "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"return 1;\"}}"));
        assertTrue(refused.body().contains("\"error\"") && refused.body().contains("Unknown tool: 'code_execute'"), refused.body());
    }

    /**
     * The operator's and the admin's part over REST, on the deployment at {@code app}: workspace {@code slug} with its
     * admin, server "main" in inline code mode, tool "echo" over the test upstream, {@code inlineCode} for the member
     * role and the member {@code <slug>-ada}. Answers the admin's key.
     */
    static String workspaceWithCodeMode(String app, String slug) throws Exception {
        HttpResponse<String> workspace = OperatorIT.send("POST", app + "/api/workspaces", Operators.API_KEY,
                "{\"slug\":\"" + slug + "\",\"name\":\"End to end\",\"admin\":{\"username\":\"" + slug + "-admin\"}}");
        assertEquals(201, workspace.statusCode(), workspace.body());
        String admin = OperatorIT.json(workspace).getJsonObject("admin").getString("apiKey");
        ok(OperatorIT.send("POST", app + "/api/servers", admin, "{\"slug\":\"main\",\"name\":\"Main\",\"codeMode\":\"inline\"}"), 201);
        ok(OperatorIT.send("POST", app + "/api/tools", admin, "{\"server\":\"main\",\"name\":\"echo\",\"description\":\"Echoes an id\","
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]},"
                + "\"endpointMapping\":{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}}"), 201);
        ok(OperatorIT.send("PUT", app + "/api/roles/member", admin, "{\"capabilities\":[\"tools.write\",\"inlineCode\"]}"), 200);
        ok(OperatorIT.send("POST", app + "/api/users", admin, "{\"username\":\"" + slug + "-ada\",\"role\":\"member\"}"), 201);
        return admin;
    }

    static void ok(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), response.body());
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
