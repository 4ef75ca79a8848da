package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import dev.amcp.gateway.workspace.entity.UserAccount;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;
import java.util.TreeSet;

/**
 * What the admin audit log keeps of workspaces, people, roles, keys and servers: the fields an admin changes, never a
 * password hash, a key hash or a key (a key is named by its id and name only, not even its display prefix).
 */
final class AdminSnapshots {

    private AdminSnapshots() {}

    static JsonObject of(Workspace w) {
        return JsonSupport.JSON.createObjectBuilder().add("slug", w.getSlug()).add("name", w.getName()).add("enabled", w.isEnabled()).build();
    }

    static JsonObject of(UserAccount u, String role) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("username", u.getUsername())
                .add("displayName", u.getDisplayName()).add("role", role).add("enabled", u.isEnabled());
        optional(b, "email", u.getEmail());
        return b.build();
    }

    static JsonObject of(Role r) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", r.getName()).add("builtin", r.isBuiltin())
                .add("capabilities", JsonSupport.JSON.createArrayBuilder(new TreeSet<>(r.getCapabilities())))
                .add("allServers", r.isAllServers());
        var servers = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(r.getServerIds()).forEach(servers::add);
        return b.add("serverIds", servers).build();
    }

    static JsonObject of(ApiKey k, String username) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", k.getId()).add("name", k.getName()).add("user", username);
        optional(b, "expiresAt", k.getExpiresAt());
        optional(b, "revokedAt", k.getRevokedAt());
        return b.build();
    }

    static JsonObject of(McpServerConfig s) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("slug", s.getSlug()).add("name", s.getName())
                .add("codeMode", s.getCodeMode().wire());
        optional(b, "description", s.getDescription());
        return b.build();
    }

    private static void optional(JsonObjectBuilder b, String name, Object value) {
        if (value != null) {
            b.add(name, value instanceof Instant i ? i.toString() : value.toString());
        }
    }
}
