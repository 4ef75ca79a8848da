package dev.amcp.gateway.demo.control;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.sources.control.OpenApiImports;
import dev.amcp.gateway.sources.entity.OpenApiImportRequest;
import dev.amcp.gateway.upstreams.control.WorkspaceUpstreams;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Seeds the demo workspace when {@code AMCP_DEMO=true} and the database holds no workspace yet: the demo server
 * with eight tools over the demo API (imported from its OpenAPI document), an admin user, and an API key printed once.
 */
@ApplicationScoped
public class DemoSeeder {

    public static final String WORKSPACE = "demo";
    public static final String SERVER = "demo";
    /** The demo API's OpenAPI document, which it also serves at {@code /demo-api/openapi.json}. */
    public static final String OPENAPI = "/demo/demo-api.openapi.json";
    private static final Logger LOG = Logger.getLogger(DemoSeeder.class.getName());

    @Inject
    Settings settings;

    @Inject
    Migrations migrations;

    @Inject
    WorkspaceService workspaces;

    @Inject
    OpenApiImports imports;

    @Inject
    ApiKeyService apiKeys;

    @Inject
    WorkspaceUpstreams upstreamGrants;

    /** What the seeding produced; the key and password are only ever printed, never stored in clear. */
    public record Seeded(Workspace workspace, String apiKey, String adminPassword) {}

    void seedOnStart(@Observes @Priority(Migrations.PRIORITY + 10) Startup startup) {
        if (!settings.getBoolean("AMCP_DEMO", false) || !migrations.status().applied()) {
            return;
        }
        if (workspaces.workspaceCount() > 0) {
            LOG.info("AMCP_DEMO is set but the database already holds workspaces; the demo is not seeded again");
            return;
        }
        try {
            printBanner(seed());
        } catch (RuntimeException e) {
            // The transaction rolled back, so no half-seeded demo is left; the gateway itself keeps serving.
            LOG.log(java.util.logging.Level.SEVERE, "Seeding the demo workspace failed", e);
        }
    }

    @Transactional
    public Seeded seed() {
        return seed(WORKSPACE);
    }

    /** Seeds the demo into a new workspace of the given slug, in one transaction. */
    @Transactional
    public Seeded seed(String workspaceSlug) {
        Workspace workspace = workspaces.createWorkspace(workspaceSlug, "Demo workspace");
        var server = workspaces.createServer(workspace.getId(), SERVER, "Demo shop", "Customers, orders and inventory of the demo API");
        String password = settings.get("AMCP_DEMO_ADMIN_PASSWORD").orElseGet(DemoSeeder::randomPassword);
        String adminName = WORKSPACE.equals(workspaceSlug) ? "admin" : workspaceSlug + "-admin"; // usernames are global
        UserAccount admin = workspaces.createUser(workspace.getId(), adminName, "Demo admin", Role.ADMIN, password);
        Role adminRole = workspaces.role(workspace.getId(), Role.ADMIN);
        // Code mode on at once: the demo server runs inline code and the demo admin may use code_execute.
        workspaces.setCodeMode(server.getId(), McpServerConfig.CodeMode.INLINE);
        Set<String> capabilities = new TreeSet<>(adminRole.getCapabilities());
        capabilities.add(Capability.INLINE_CODE);
        adminRole = workspaces.updateRole(adminRole.getId(), capabilities, true, Set.of());
        // The operator who turned the demo on grants it the demo API.
        upstreamGrants.grantToSeededWorkspace(workspace.getId(), "DEMO", "demo");
        Caller system = new Caller(workspace.getId(), admin.getId(), null, admin.getUsername(), adminRole.toGrant(), CallScope.UNRESTRICTED);
        // The tools come from the demo API's own OpenAPI document, through the importer an admin would use.
        JsonObject preview = imports.preview(system, new OpenApiImportRequest(server.getSlug(), null, resource(OPENAPI),
                "${" + UpstreamSyntax.SETTING_PREFIX + "DEMO}", null, null));
        imports.apply(system, preview.getJsonNumber("id").longValue(), List.of(), List.of());
        var key = settings.get("AMCP_DEMO_API_KEY")
                .map(fixed -> apiKeys.issue(admin.getId(), "demo key", null, fixed))
                .orElseGet(() -> apiKeys.issue(admin.getId(), "demo key", null));
        return new Seeded(workspace, key.plaintext(), password);
    }

    private void printBanner(Seeded seeded) {
        String base = "http://localhost:" + settings.get("AMCP_HTTP_PORT", "9080");
        String banner = String.join(System.lineSeparator(),
                "",
                "================ AMCP Gateway demo is ready ================",
                "  Editor:      " + base + "/admin   (user admin, password " + seeded.adminPassword() + ")",
                "  MCP server:  " + base + "/mcp/" + SERVER,
                "  API key:     " + seeded.apiKey() + "   (shown once; stored only as a hash)",
                "  Try it:      curl -s -X POST -H 'Authorization: Bearer " + seeded.apiKey() + "' \\",
                "                 -H 'Content-Type: application/json' -d '{\"customerId\": 7}' " + base + "/api/tools/customer_get/call",
                "  MCP client config:",
                "    {\"mcpServers\": {\"amcp-demo\": {\"type\": \"http\", \"url\": \"" + base + "/mcp/" + SERVER + "\",",
                "      \"headers\": {\"Authorization\": \"Bearer " + seeded.apiKey() + "\"}}}}",
                "=============================================================",
                "");
        System.out.println(banner);
    }

    public static String resource(String path) {
        try (InputStream in = DemoSeeder.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + path, e);
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
