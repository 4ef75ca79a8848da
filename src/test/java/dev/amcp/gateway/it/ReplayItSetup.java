package dev.amcp.gateway.it;

import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Test-only set-up for the replay and dry-run tests, which run as clients: a demo workspace (Enterprise license, so code
 * may write) with a read tool {@code count_item} over the counting upstream, a code tool {@code items_total} that calls
 * it twice, a code tool {@code plan_order} that reads a customer and creates an order, and a member whose role may use
 * no server (so every recorded result is withheld from it).
 */
@Path("/it-replay-setup")
@RequestScoped
public class ReplayItSetup {

    static final String ITEMS_CODE = """
            const a = await amcp.run('count_item', {id: input.first});
            const b = await amcp.run('count_item', {id: 'b'});
            return {ids: [a.id, b.id]};
            """;
    static final String ITEMS_SCHEMA = "{\"type\":\"object\",\"properties\":{\"first\":{\"type\":\"string\"}},\"required\":[\"first\"]}";

    @Inject
    DemoSeeder seeder;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    CodeToolService codeTools;

    @Inject
    ToolService tools;

    @Inject
    WorkspaceService workspaces;

    @Inject
    LicenseService licenses;

    @POST
    @Path("tenant")
    @Produces("application/json")
    public String tenant() {
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 10_000));
        var demo = seeder.seed("rp-" + UUID.randomUUID().toString().substring(0, 8));
        long ws = demo.workspace().getId();
        var admin = apiKeys.authenticateKey(demo.apiKey()).orElseThrow().withScope(CallScope.UNRESTRICTED);
        tools.createHttpTool(admin, new ToolDraft("demo", "count_item", "Count an item", "Answers an item and counts the call",
                JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}"), null,
                JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/counted/{id}\"}")));
        var items = codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "items_total", "Two items", "Reads two items",
                JsonSupport.parseObject(ITEMS_SCHEMA), null, null), new CodeToolSpec(ITEMS_CODE, List.of("count_item"), CodeToolSpec.INVOKER, false)));
        var plan = codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "plan_order", "Order for customer 1",
                "Reads customer 1 and orders two SKU-001 for it", null, null, null), new CodeToolSpec("""
                        const c = await amcp.run('customer_get', {customerId: 1});
                        const o = await amcp.run('order_create', {customerId: c.id, sku: 'SKU-001', quantity: 2, note: 'dry'});
                        return {customer: c.id, order: o};
                        """, List.of("customer_get", "order_create"), CodeToolSpec.INVOKER, true)));
        Role member = workspaces.role(ws, Role.MEMBER);
        workspaces.updateRole(member.getId(), member.getCapabilities(), false, Set.of()); // may use no server
        var user = workspaces.createUser(ws, demo.workspace().getSlug() + "-member", "member", Role.MEMBER, null);
        String memberKey = apiKeys.issue(user.getId(), "member key", null).plaintext();
        return Json.createObjectBuilder().add("key", demo.apiKey()).add("memberKey", memberKey)
                .add("itemsTool", items.value().getId()).add("planTool", plan.value().getId()).build().toString();
    }
}
