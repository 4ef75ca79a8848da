package dev.amcp.gateway.upstreams.entity;

/** A person's account at a per-person upstream MCP server was disconnected; their open client there must go. */
public record UpstreamAccountClosed(long upstreamServerId, long userId) {}
