package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.SkillSuggestion;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolProvider;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.ServerDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;

/**
 * Offers {@code propose_code_tool} on {@code /mcp/{server}} of servers whose code mode is {@code inline}, to roles
 * holding {@code proposeCode} (admins do): an agent that found a useful program can propose it as a code tool.
 * Nothing runs or changes until an admin accepts it.
 */
@ApplicationScoped
public class ProposeCodeToolProvider implements ToolProvider {

    public static final String NAME = "propose_code_tool";

    static final JsonObject INPUT_SCHEMA = JsonSupport.parseObject("""
            {"type": "object",
             "properties": {
               "name": {"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,64}$", "description": "Name of the proposed tool"},
               "title": {"type": "string", "maxLength": 200},
               "description": {"type": "string", "maxLength": 4000, "description": "What the tool does, for the model that will call it"},
               "code": {"type": "string", "minLength": 1, "maxLength": 100000, "description": "Body of an async function using amcp and input"},
               "uses": {"type": "array", "items": {"type": "string"}, "maxItems": 100, "description": "The tools the code calls"},
               "inputSchema": {"type": "object", "description": "JSON Schema of the tool's input"}},
             "required": ["name", "description", "code", "uses"], "additionalProperties": false}""");

    @Inject
    ServerDirectory servers;

    @Inject
    ProposalService proposals;

    @Override
    public List<VirtualTool> virtualTools(Caller caller) {
        if (!caller.has(Capability.PROPOSE_CODE)) {
            return List.of();
        }
        var server = InlineServers.offering(caller, NAME, servers);
        if (server.isEmpty()) {
            return List.of();
        }
        long serverId = server.get().id();
        return List.of(new VirtualTool() {
            @Override
            public ToolDescriptor descriptor() {
                return new ToolDescriptor(NAME, "Propose a code tool",
                        "Proposes a reusable code tool to this workspace's admins. It does not run or save anything; an admin "
                                + "reviews the code and may accept it. Propose programs you found useful with code_execute.",
                        INPUT_SCHEMA, null, false, false, false, true);
            }

            @Override
            public ToolResult call(Caller c, JsonObject args) {
                SkillSuggestion proposal;
                try {
                    proposal = proposals.propose(c, serverId, args);
                } catch (IllegalArgumentException | GateRefusedException e) {
                    return ToolResult.error("Not proposed: " + e.getMessage());
                }
                return ToolResult.json(JsonSupport.JSON.createObjectBuilder().add("proposalId", proposal.getId())
                        .add("status", proposal.getStatus())
                        .add("message", "Proposed '" + proposal.getName() + "'; an admin will review it").build());
            }
        });
    }
}
