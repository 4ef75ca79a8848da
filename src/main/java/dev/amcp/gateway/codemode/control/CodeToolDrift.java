package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.UsedToolDrift;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.SchemaHash;
import dev.amcp.gateway.tools.control.ToolDiff;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolSchemaChanged;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Schema drift of code tools. A save pins the schemas of every tool in {@code uses} ({@link #pins}); a code tool whose
 * used tools no longer match their pins needs review ({@link #of}): the editor and REST show the differences, and a
 * definer-mode tool refuses to run until an admin saves it again, which pins the schemas anew. The comparison is live,
 * so whatever changed a used tool counts; {@link ToolSchemaChanged} (every save through {@code ToolService}) adds an
 * audit row naming each code tool it put into review.
 */
@ApplicationScoped
public class CodeToolDrift {

    /** The audit action of a code tool put into review by a change to a tool it uses. */
    public static final String NEEDS_REVIEW = "needsReview";

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Event<AdminChange> changes;

    /** The pins of a save: for each used tool, its schema hash and the schemas themselves (for the differences later). */
    JsonObject pins(long workspaceId, List<String> uses) {
        JsonObjectBuilder pins = JsonSupport.JSON.createObjectBuilder();
        for (String name : uses) {
            McpTool used = find(workspaceId, name);
            if (used != null) {
                pins.add(name, JsonSupport.JSON.createObjectBuilder().add("sha256", SchemaHash.of(used))
                        .add("inputSchema", orNull(used.getInputSchema())).add("outputSchema", orNull(used.getOutputSchema())));
            }
        }
        return pins.build();
    }

    /** How the used tools differ from the code tool's pins; empty when it needs no review (or was saved before pins). */
    public List<UsedToolDrift> of(McpTool codeTool) {
        JsonObject pins = codeTool.getUsesSchemaPins();
        if (pins == null || !codeTool.isCodeTool()) {
            return List.of();
        }
        List<UsedToolDrift> drift = new ArrayList<>();
        for (String name : CodeToolSpec.from(codeTool.getEndpointMapping()).uses()) {
            if (!(pins.get(name) instanceof JsonObject pin)) {
                continue;
            }
            McpTool now = find(codeTool.getWorkspaceId(), name);
            if (now == null || now.isCodeTool()) {
                drift.add(new UsedToolDrift(name, UsedToolDrift.REMOVED, List.of()));
            } else if (!SchemaHash.of(now).equals(pin.getString("sha256", ""))) {
                drift.add(new UsedToolDrift(name, UsedToolDrift.CHANGED, ToolDiff.schemaChanges(objectOrNull(pin, "inputSchema"),
                        objectOrNull(pin, "outputSchema"), now.getInputSchema(), now.getOutputSchema())));
            }
        }
        return drift;
    }

    /** Records, for each code tool of the workspace that uses the changed tool and now differs, that it needs review. */
    void onSchemaChanged(@Observes ToolSchemaChanged change) {
        List<McpTool> codeTools = em.createQuery("select t from McpTool t where t.workspaceId = :w and t.method = :code", McpTool.class)
                .setParameter("w", change.workspaceId()).setParameter("code", McpTool.CODE).getResultList();
        for (McpTool codeTool : codeTools) {
            if (!CodeToolSpec.from(codeTool.getEndpointMapping()).uses().contains(change.toolName())) {
                continue;
            }
            List<UsedToolDrift> drift = of(codeTool).stream().filter(d -> d.tool().equals(change.toolName())).toList();
            if (!drift.isEmpty()) {
                changes.fire(AdminChange.by(change.caller(), change.workspaceId(), AdminChange.CODE_TOOL,
                        codeTool.getName() + " (" + codeTool.getId() + ")", NEEDS_REVIEW, null, json(drift)));
            }
        }
    }

    public static JsonObject json(List<UsedToolDrift> drift) {
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        drift.forEach(d -> array.add(d.toJson()));
        return JsonSupport.JSON.createObjectBuilder().add("needsReview", !drift.isEmpty()).add("drift", array).build();
    }

    private McpTool find(long workspaceId, String name) {
        return em.createNamedQuery(McpTool.BY_NAME, McpTool.class).setParameter("workspaceId", workspaceId)
                .setParameter("name", name).getResultStream().findFirst().orElse(null);
    }

    private static JsonValue orNull(JsonObject o) {
        return o == null ? JsonValue.NULL : o;
    }

    private static JsonObject objectOrNull(JsonObject o, String key) {
        return o.get(key) instanceof JsonObject v ? v : null;
    }
}
