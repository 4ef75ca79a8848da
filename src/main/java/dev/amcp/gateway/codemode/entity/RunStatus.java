package dev.amcp.gateway.codemode.entity;

/** How a code run ended; stored in {@code code_runs.status}. */
public enum RunStatus {
    SUCCESS, ERROR, TIMEOUT, REFUSED, CANCELLED, LIMIT
}
