package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.control.CallContext;
import dev.amcp.gateway.tools.control.ToolProvider;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test-only virtual tools, offered only to workspaces a test enabled them for. {@code code_execute} stands in for
 * code mode's tool and deliberately ignores the caller's scope, so tests can prove the shared endpoint filters it
 * itself. {@code test_tool_with_progress} reports progress through {@link CallContext}, as the conformance suite expects.
 */
@ApplicationScoped
public class ItToolProvider implements ToolProvider {

    public static final String CODE_EXECUTE = "code_execute";
    public static final String PROGRESS = "test_tool_with_progress";
    private static final Map<Long, Set<String>> ENABLED = new ConcurrentHashMap<>();

    public static void enable(long workspaceId, String... tools) {
        ENABLED.put(workspaceId, Set.of(tools));
    }

    @Override
    public List<VirtualTool> virtualTools(Caller caller) {
        Set<String> names = ENABLED.getOrDefault(caller.workspaceId(), Set.of());
        return List.<VirtualTool>of(codeExecute(), progress()).stream().filter(t -> names.contains(t.descriptor().name())).toList();
    }

    private static VirtualTool codeExecute() {
        return new VirtualTool() {
            public ToolDescriptor descriptor() {
                return new ToolDescriptor(CODE_EXECUTE, "Run code", "Stand-in for code mode's code_execute",
                        ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, true, false, false, true);
            }

            public ToolResult call(Caller caller, JsonObject args) {
                return ToolResult.json(Json.createObjectBuilder().add("ran", true).build());
            }
        };
    }

    private static VirtualTool progress() {
        return new VirtualTool() {
            public ToolDescriptor descriptor() {
                return new ToolDescriptor(PROGRESS, "Progress test", "Reports progress 0, 50 and 100 of 100, then answers",
                        ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, true, false, true, false);
            }

            public ToolResult call(Caller caller, JsonObject args) {
                CallContext context = CallContext.current();
                try {
                    for (int p = 0; p <= 100; p += 50) {
                        context.progress(p, 100.0, "step " + p);
                        if (p < 100) {
                            Thread.sleep(50);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return ToolResult.json(Json.createObjectBuilder().add("done", true)
                        .add("cancelled", context.isCancelled()).add("requestKey", String.valueOf(context.requestKey())).build());
            }
        };
    }
}
