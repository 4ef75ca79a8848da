package dev.amcp.gateway.it;

import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Role;
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
import java.util.UUID;

/**
 * Test-only set-up for the approval tests, which run as clients: a demo workspace (Enterprise license, so code may
 * write) with a code tool {@code order_for} (approval always) that reads a customer and creates an order for it, a
 * code tool {@code order_by_role} that follows the role, a code tool {@code two_orders} (approval always) that writes twice, two members with keys (the one who asks, and another who must
 * not collect), and the admin's key.
 */
@Path("/it-approval-setup")
@RequestScoped
public class ApprovalItSetup {

    static final String ORDER_CODE = """
            const c = await amcp.run('customer_get', {customerId: input.customerId});
            const o = await amcp.run('order_create', {customerId: c.id, sku: 'SKU-001', quantity: 1, note: input.note});
            return {customer: c.id, order: o.id};
            """;
    /** Two writes, with a read between them: each needs its own approval. */
    static final String TWO_ORDERS_CODE = """
            const c = await amcp.run('customer_get', {customerId: input.customerId});
            const first = await amcp.run('order_create', {customerId: c.id, sku: 'SKU-001', quantity: 1, note: input.note + ' #1'});
            const again = await amcp.run('customer_get', {customerId: c.id});
            const second = await amcp.run('order_create', {customerId: again.id, sku: 'SKU-001', quantity: 2, note: input.note + ' #2'});
            return {customer: c.id, orders: [first.id, second.id]};
            """;
    static final String INPUT_SCHEMA = "{\"type\":\"object\",\"properties\":{\"customerId\":{\"type\":\"integer\"},"
            + "\"note\":{\"type\":\"string\"}},\"required\":[\"customerId\",\"note\"]}";

    @Inject
    DemoSeeder seeder;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    CodeToolService codeTools;

    @Inject
    WorkspaceService workspaces;

    @Inject
    LicenseService licenses;

    @POST
    @Path("tenant")
    @Produces("application/json")
    public String tenant() {
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 10_000));
        var demo = seeder.seed("ap-" + UUID.randomUUID().toString().substring(0, 8));
        long ws = demo.workspace().getId();
        var admin = apiKeys.authenticateKey(demo.apiKey()).orElseThrow().withScope(CallScope.UNRESTRICTED);
        var schema = dev.amcp.gateway.platform.control.JsonSupport.parseObject(INPUT_SCHEMA);
        var always = codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "order_for", "Order for a customer",
                "Reads a customer and orders one SKU-001 for it", schema, null, null),
                new CodeToolSpec(ORDER_CODE, List.of("customer_get", "order_create"), CodeToolSpec.INVOKER, true, false, CodeToolSpec.APPROVAL_ALWAYS)));
        var byRole = codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "order_by_role", "Order, as the role says",
                "Reads a customer and orders one SKU-001 for it", schema, null, null),
                new CodeToolSpec(ORDER_CODE, List.of("customer_get", "order_create"), CodeToolSpec.INVOKER, true)));
        var twoOrders = codeTools.create(admin, new CodeToolDraft(new ToolDraft("demo", "two_orders", "Two orders for a customer",
                "Reads a customer and orders twice for it", schema, null, null),
                new CodeToolSpec(TWO_ORDERS_CODE, List.of("customer_get", "order_create"), CodeToolSpec.INVOKER, true, false, CodeToolSpec.APPROVAL_ALWAYS)));
        String slug = demo.workspace().getSlug();
        var asker = workspaces.createUser(ws, slug + "-asker", "asker", Role.MEMBER, null);
        var other = workspaces.createUser(ws, slug + "-other", "other", Role.MEMBER, null);
        return Json.createObjectBuilder().add("adminKey", demo.apiKey()).add("slug", slug)
                .add("admin", slug + "-admin").add("password", demo.adminPassword())
                .add("askerKey", apiKeys.issue(asker.getId(), "asker key", null).plaintext())
                .add("otherKey", apiKeys.issue(other.getId(), "other key", null).plaintext())
                .add("alwaysTool", always.value().getId()).add("roleTool", byRole.value().getId())
                .add("twoTool", twoOrders.value().getId()).build().toString();
    }
}
