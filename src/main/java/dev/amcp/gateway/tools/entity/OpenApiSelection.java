package dev.amcp.gateway.tools.entity;

/** One operation an admin accepts from a preview, by its {@code operationId}, optionally overriding read/write. */
public record OpenApiSelection(String operationId, Boolean readOnly) {}
