package dev.amcp.gateway.tools.entity;

import jakarta.json.JsonObject;

/** What an admin submits to create or change a tool; checked by {@code ToolService} before anything is written. */
public record ToolDraft(String serverSlug, String name, String title, String description, JsonObject inputSchema,
                        JsonObject outputSchema, JsonObject endpointMapping) {}
