package dev.amcp.gateway.tools.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * A source of virtual tools: tools that exist only on some endpoints, such as {@code code_execute}. The provider
 * decides which of its tools a caller in its scope may see; {@link ToolExecutor} still runs them.
 */
public interface ToolProvider {

    /** The virtual tools this caller may use in its current scope. */
    List<VirtualTool> virtualTools(Caller caller);

    /** One virtual tool: its description and how it runs. */
    interface VirtualTool {
        ToolDescriptor descriptor();

        /** Its name; override where the full descriptor costs more than the name (it is asked on every call). */
        default String name() {
            return descriptor().name();
        }

        /** Its input schema, which every call is validated against; override as {@link #name()}. */
        default JsonObject inputSchema() {
            return descriptor().inputSchema();
        }

        ToolResult call(Caller caller, JsonObject args);

        /**
         * The client capabilities ({@code sampling}, {@code elicitation}, …) this tool cannot run without. An MCP client
         * that does not declare them gets an error before the tool runs, instead of a tool relying on them. None by
         * default: the gateway's own tools need nothing from the client.
         */
        default Set<String> requiredClientCapabilities() {
            return Set.of();
        }
    }
}
