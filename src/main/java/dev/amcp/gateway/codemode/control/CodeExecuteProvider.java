package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.audit.control.ToolUsageRanking;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolProvider;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.ServerDirectory;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Offers inline {@code code_execute} on {@code /mcp/{server}} when the server's code mode is {@code inline}, the
 * caller's role holds {@code inlineCode} and a runner is configured. Its code may call the read-only tools of that
 * server with the caller's own rights, and nothing else.
 */
@ApplicationScoped
public class CodeExecuteProvider implements ToolProvider {

    public static final String NAME = "code_execute";

    static final JsonObject INPUT_SCHEMA = JsonSupport.parseObject("""
            {"type": "object",
             "properties": {
               "code": {"type": "string", "minLength": 1, "maxLength": 100000,
                        "description": "Body of an async JavaScript function. amcp.search(query?, {limit?}), amcp.describe(name) and amcp.run(name, args) reach this server's read-only tools; return the result."},
               "input": {"description": "Passed to the code as the variable input"}},
             "required": ["code"], "additionalProperties": false}""");

    static final String DESCRIPTION = "Runs a short JavaScript program that orchestrates this server's read-only tools in "
            + "one round trip; intermediate data stays out of your context. The code is the body of an async function: "
            + "`const tools = await amcp.search('orders'); const r = await amcp.run('orders_list', {status: 'open'}); "
            + "return r.count;`. amcp.run returns the tool's structured result and throws an AmcpError {code, message} on "
            + "denial or tool error. console.log output is returned on failure.";

    @Inject
    ServerDirectory servers;

    @Inject
    CodeExecutorService executor;

    @Inject
    ToolCatalog catalog;

    @Inject
    ToolUsageRanking usage;

    @Inject
    CodeRunSettings codeSettings;

    @Inject
    Settings settings;

    /** The tools a caller's code may reach depend on its workspace, role and scope, and change with access changes. */
    private record DeclarationsKey(long workspaceId, RoleGrant role, CallScope scope) {}

    private ShortCache<DeclarationsKey, String> descriptions;

    @PostConstruct
    void configure() {
        descriptions = new ShortCache<>(settings, AccessChanges::generation);
    }

    /** The tool's description for this caller's code: the usage text and the tools it may call, declared. */
    String description(Caller bridge) {
        return descriptions.get(new DeclarationsKey(bridge.workspaceId(), bridge.role(), bridge.scope()),
                key -> Optional.of(description(mostUsedFirst(bridge), codeSettings.values().declarationsMaxBytes()))).orElseThrow();
    }

    /** The usage text, then the given tools declared within {@code budgetBytes}. */
    static String description(List<ToolDescriptor> tools, int budgetBytes) {
        return DESCRIPTION + "\n\nThe tools your code may call, declared in TypeScript (amcp.run is typed by tool name):\n```ts\n"
                + TypeDeclarations.namespace(tools, budgetBytes) + "```";
    }

    private List<ToolDescriptor> mostUsedFirst(Caller bridge) {
        Map<String, Integer> calls = usage.runCalls(bridge.scope().serverId());
        return catalog.listStored(bridge).stream()
                .sorted(Comparator.comparing((ToolDescriptor d) -> -calls.getOrDefault(d.name(), 0)).thenComparing(ToolDescriptor::name))
                .toList();
    }

    @Override
    public List<VirtualTool> virtualTools(Caller caller) {
        if (!caller.has(Capability.INLINE_CODE) || !executor.configured()) {
            return List.of();
        }
        return InlineServers.offering(caller, NAME, servers).<VirtualTool>map(s -> new CodeExecute(caller, s.id())).stream().toList();
    }

    /** Inline code: read-only tools of this server, the caller's own rights, never code tools. */
    static Caller bridgeCaller(Caller caller, long serverId) {
        return caller.withScope(new CallScope(serverId, null, true, false));
    }

    private final class CodeExecute implements VirtualTool {
        private final Caller listedFor;
        private final long serverId;

        CodeExecute(Caller listedFor, long serverId) {
            this.listedFor = listedFor;
            this.serverId = serverId;
        }

        // Asked on every call: answered without declaring the tools.
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public JsonObject inputSchema() {
            return INPUT_SCHEMA;
        }

        @Override
        public ToolDescriptor descriptor() {
            return new ToolDescriptor(NAME, "Run code over this server's tools", description(bridgeCaller(listedFor, serverId)),
                    INPUT_SCHEMA, null, true, false, false, true); // inline code can only read
        }

        @Override
        public ToolResult call(Caller caller, JsonObject args) {
            Caller bridge = bridgeCaller(caller, serverId);
            JsonValue input = args.getOrDefault("input", JsonValue.NULL);
            return executor.call(new CodeRunRequest(caller, bridge, args.getString("code"), input,
                    true, serverId, null, NAME, CodeToolSpec.INVOKER));
        }
    }

}
