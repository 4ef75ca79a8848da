package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code endpoint_mapping} of a code tool: {@code {"method":"code","code":…,"uses":[…],"runAs":"invoker"|"definer",
 * "allowWrites":false, "requireReplay":false, "approval":"role"}}. {@code requireReplay}: a save is accepted only if the new code passes the
 * tool's last recorded successful runs (replayed, no tool called); it is written to the mapping only when set, so the
 * pins of tools saved before it existed stay valid. {@code approval} (with {@code allowWrites}): {@code always} a human
 * approves the run's first write before it is made, {@code never}, or {@code role} (the default, not written) as the
 * calling role's {@code approveWrites} says.
 */
public record CodeToolSpec(String code, List<String> uses, String runAs, boolean allowWrites, boolean requireReplay, String approval) {

    public static final String APPROVAL_ALWAYS = "always";
    public static final String APPROVAL_NEVER = "never";
    public static final String APPROVAL_ROLE = "role";
    public static final List<String> APPROVALS = List.of(APPROVAL_ROLE, APPROVAL_ALWAYS, APPROVAL_NEVER);

    public CodeToolSpec(String code, List<String> uses, String runAs, boolean allowWrites) {
        this(code, uses, runAs, allowWrites, false);
    }

    public CodeToolSpec(String code, List<String> uses, String runAs, boolean allowWrites, boolean requireReplay) {
        this(code, uses, runAs, allowWrites, requireReplay, APPROVAL_ROLE);
    }

    /** The same spec calling {@code uses}. */
    public CodeToolSpec withUses(List<String> uses) {
        return new CodeToolSpec(code, List.copyOf(uses), runAs, allowWrites, requireReplay, approval);
    }

    /** Whether a run of this tool by a role with {@code roleApprovesWrites} pauses at its first write for a human. */
    public boolean writesNeedApproval(boolean roleApprovesWrites) {
        return allowWrites && (APPROVAL_ALWAYS.equals(approval) || APPROVAL_ROLE.equals(approval) && roleApprovesWrites);
    }

    public static final String INVOKER = "invoker";
    public static final String DEFINER = "definer";
    public static final int MAX_CODE_CHARS = 100_000;

    public static CodeToolSpec from(JsonObject mapping) {
        Set<String> uses = new LinkedHashSet<>();
        JsonValue raw = mapping.get("uses");
        if (raw != null && raw.getValueType() == JsonValue.ValueType.ARRAY) {
            raw.asJsonArray().forEach(v -> {
                if (v instanceof JsonString s) {
                    uses.add(s.getString());
                }
            });
        }
        return new CodeToolSpec(JsonSupport.string(mapping, "code", ""), List.copyOf(uses),
                JsonSupport.string(mapping, "runAs", INVOKER), mapping.getBoolean("allowWrites", false),
                mapping.getBoolean("requireReplay", false), JsonSupport.string(mapping, "approval", APPROVAL_ROLE));
    }

    public JsonObject toMapping() {
        JsonArrayBuilder u = JsonSupport.JSON.createArrayBuilder();
        uses.forEach(u::add);
        var b = JsonSupport.JSON.createObjectBuilder().add("method", "code").add("code", code).add("uses", u).add("runAs", runAs)
                .add("allowWrites", allowWrites);
        if (requireReplay) {
            b.add("requireReplay", true);
        }
        if (!APPROVAL_ROLE.equals(approval)) {
            b.add("approval", approval);
        }
        return b.build();
    }
}
