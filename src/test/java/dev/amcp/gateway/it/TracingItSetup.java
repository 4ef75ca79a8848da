package dev.amcp.gateway.it;

import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.UUID;

/**
 * Test-only set-up for {@link TracingIT}: a demo workspace (inline code mode) whose server also has {@code trace_probe},
 * a GET on the test upstream (with the upstream's credential and a secret in its query) that answers the trace headers it
 * received.
 */
@Path("/it-trace-setup")
@RequestScoped
public class TracingItSetup {

    /** A secret in the probe's query string, as some APIs take their keys; it must never reach a span. */
    static final String QUERY_SECRET = "q-secret-8c1f";

    @Inject
    DemoSeeder seeder;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    ToolService tools;

    @POST
    @Path("tenant")
    @Produces("application/json")
    public String tenant() {
        var demo = seeder.seed("tr-" + UUID.randomUUID().toString().substring(0, 8));
        var admin = apiKeys.authenticateKey(demo.apiKey()).orElseThrow().withScope(CallScope.UNRESTRICTED);
        tools.createHttpTool(admin, new ToolDraft("demo", "trace_probe", "Trace probe", "Answers the trace headers it got",
                null, null, JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/trace?sig=" + QUERY_SECRET
                        + "\",\"credential\":\"it\"}")));
        return Json.createObjectBuilder().add("key", demo.apiKey()).build().toString();
    }
}
