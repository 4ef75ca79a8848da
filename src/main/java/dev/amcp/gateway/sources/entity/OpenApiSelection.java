package dev.amcp.gateway.sources.entity;

/** One operation an admin accepts from a preview, by its {@code operationId}, optionally overriding read/write. */
public record OpenApiSelection(String operationId, Boolean readOnly) {}
