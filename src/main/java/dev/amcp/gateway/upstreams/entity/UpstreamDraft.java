package dev.amcp.gateway.upstreams.entity;

/** A workspace upstream as an admin submits it: a name (unique in the workspace), a base URL, an optional description. */
public record UpstreamDraft(String name, String baseUrl, String description) {}
