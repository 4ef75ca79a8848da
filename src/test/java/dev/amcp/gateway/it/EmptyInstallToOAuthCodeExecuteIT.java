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
 * {@link EmptyInstallToCodeExecuteIT} with an OAuth access token instead of a key: over REST the bootstrap operator
 * creates a workspace and its admin, the admin a server in inline code mode, a tool, {@code inlineCode} for the
 * member role and a member; the member's MCP client, holding a token of the real OpenID provider, runs
 * {@code code_execute}; narrowing the role narrows the token at once.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EmptyInstallToOAuthCodeExecuteIT {

    static final String APP = "/amcp-e2e-oauth";

    @Deployment(testable = false)
    static WebArchive gateway() {
        Deployments.requireRunner();
        return Deployments.gateway("amcp-e2e-oauth", false, Map.of(OperatorBootstrap.USERNAME, Operators.USERNAME,
                OperatorBootstrap.PASSWORD, Operators.PASSWORD, OperatorBootstrap.API_KEY, Operators.API_KEY,
                "AMCP_OIDC_ISSUER", OidcTestProvider.ISSUER, "AMCP_PUBLIC_URL", McpHttp.base() + APP));
    }

    @Test
    void operatorWorkspaceAdminRoleUserTokenAndCodeExecute() throws Exception {
        try (OidcTestProvider provider = OidcTestProvider.start()) {
            String slug = "e2eo-" + OperatorIT.suffix();
            String admin = EmptyInstallToCodeExecuteIT.workspaceWithCodeMode(APP, slug);

            String token = provider.tokenOverHttp(slug + "-ada", McpHttp.base() + APP + "/mcp/main");
            HttpResponse<String> call = McpHttp.post(APP + "/mcp/main", token, McpHttp.request(2, "tools/call",
                    "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"const r = await amcp.run('echo', {id: 'e2e'}); return r.id + ':' + r.auth + '!';\"}}"));
            assertEquals(200, call.statusCode(), call.body());
            assertTrue(call.body().contains("e2e:!") && call.body().contains("\"isError\":false"),
                    "code ran as Ada, and the upstream got no token: " + call.body());

            EmptyInstallToCodeExecuteIT.ok(send("PUT", "/api/roles/member", admin, "{\"capabilities\":[\"tools.write\"]}"), 200);
            HttpResponse<String> refused = McpHttp.post(APP + "/mcp/main", token, McpHttp.request(3, "tools/call",
                    "{\"name\":\"code_execute\",\"arguments\":{\"code\":\"return 1;\"}}"));
            assertTrue(refused.body().contains("Unknown tool: 'code_execute'"), refused.body());
        }
    }

    static HttpResponse<String> send(String method, String path, String key, String body) throws Exception {
        return OperatorIT.send(method, APP + path, key, body);
    }
}
