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
    // The 2026-07-28 suite's diagnostic tools (server-stateless)
    public static final String MISSING_CAPABILITY = "test_missing_capability";
    public static final String STREAMING_ELICITATION = "test_streaming_elicitation";
    public static final String LOGGING = "test_logging_tool";
    public static final String TRIGGER_TOOL_CHANGE = "test_trigger_tool_change";
    /** Appears and disappears with each call of {@link #TRIGGER_TOOL_CHANGE}, so the caller's tool list changes. */
    public static final String TOGGLED = "test_toggled_tool";
    private static final Map<Long, Set<String>> ENABLED = new ConcurrentHashMap<>();

    public static void enable(long workspaceId, String... tools) {
        ENABLED.put(workspaceId, Set.of(tools));
    }

    @Override
    public List<VirtualTool> virtualTools(Caller caller) {
        Set<String> names = ENABLED.getOrDefault(caller.workspaceId(), Set.of());
        return List.<VirtualTool>of(codeExecute(), progress(),
                        simple(MISSING_CAPABILITY, "Needs the client's sampling capability", Set.of("sampling")),
                        simple(STREAMING_ELICITATION, "Answers at once; never sends a request on the response stream", Set.of()),
                        simple(LOGGING, "Answers at once; sends no log notifications", Set.of()),
                        trigger(), simple(TOGGLED, "Exists only every other trigger", Set.of()))
                .stream().filter(t -> names.contains(t.descriptor().name())).toList();
    }

    private static VirtualTool simple(String name, String description, Set<String> capabilities) {
        return new VirtualTool() {
            public ToolDescriptor descriptor() {
                return new ToolDescriptor(name, name, description, ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, true, false, true, false);
            }

            public ToolResult call(Caller caller, JsonObject args) {
                return ToolResult.json(Json.createObjectBuilder().add("tool", name).build());
            }

            public Set<String> requiredClientCapabilities() {
                return capabilities;
            }
        };
    }

    /** Adds or removes {@link #TOGGLED} for the caller's workspace: its tool list changes, as after an admin's edit. */
    private static VirtualTool trigger() {
        return new VirtualTool() {
            public ToolDescriptor descriptor() {
                return new ToolDescriptor(TRIGGER_TOOL_CHANGE, "Change the tool list", "Adds or removes test_toggled_tool",
                        ToolDescriptor.EMPTY_OBJECT_SCHEMA, null, false, false, false, false);
            }

            public ToolResult call(Caller caller, JsonObject args) {
                Set<String> names = new java.util.HashSet<>(ENABLED.getOrDefault(caller.workspaceId(), Set.of()));
                boolean added = names.add(TOGGLED) || !names.remove(TOGGLED);
                ENABLED.put(caller.workspaceId(), Set.copyOf(names));
                dev.amcp.gateway.governance.entity.AccessChanges.changed(); // as an admin's save signals it
                return ToolResult.json(Json.createObjectBuilder().add("toggled", added).build());
            }
        };
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
