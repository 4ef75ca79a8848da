package dev.amcp.gateway.it;

import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.List;
import java.util.UUID;

/**
 * Test-only set-up for the code-mode MCP tests, which run as clients: a demo workspace (inline code mode, admin
 * with inlineCode) with a code tool {@code sum_two}, and a second workspace with a tool of its own.
 */
@Path("/it-code-setup")
@RequestScoped
public class CodeModeItSetup {

    @Inject
    DemoSeeder seeder;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    CodeToolService codeTools;

    @Inject
    Fixtures fixtures;

    @POST
    @Path("tenant")
    @Produces("application/json")
    public String tenant() {
        var demo = seeder.seed("cm-" + UUID.randomUUID().toString().substring(0, 8));
        var admin = apiKeys.authenticateKey(demo.apiKey()).orElseThrow().withScope(CallScope.UNRESTRICTED);
        codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "sum_two", "Open orders plus low-stock products",
                "Counts open orders and low-stock products and returns their sum", null, null, null),
                new CodeToolSpec("""
                        const orders = await amcp.run('orders_list', {status: 'open', limit: 500});
                        const stock = await amcp.run('inventory_list', {lowStock: true});
                        return {orders: orders.count, lowStock: stock.count, sum: orders.count + stock.count};
                        """, List.of("orders_list", "inventory_list"), CodeToolSpec.INVOKER, false)));
        var other = fixtures.tenant();
        fixtures.httpTool(other, "main", "secret_b", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/secret\"}");
        return Json.createObjectBuilder().add("key", demo.apiKey()).add("workspace", demo.workspace().getSlug())
                .add("otherKey", other.adminKey()).build().toString();
    }

    /**
     * The server's live threads, and how many of them are inside a code run (a request thread parked until its run
     * ends has {@code CodeExecutorService} on its stack), or inside the class named by {@code in}: a fault must give
     * them all back.
     */
    @jakarta.ws.rs.GET
    @Path("threads")
    @Produces("application/json")
    public String threads(@jakarta.ws.rs.QueryParam("in") @jakarta.ws.rs.DefaultValue("dev.amcp.gateway.codemode.control.CodeExecutorService")
                          String inside) {
        var all = Thread.getAllStackTraces();
        long in = all.values().stream().filter(stack -> java.util.Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith(inside)))
                .count();
        return Json.createObjectBuilder().add("total", all.size()).add("inRuns", in).build().toString();
    }
}
