package dev.amcp.gateway.codemode.entity;

/**
 * How a code run ended; stored in {@code code_runs.status}. {@code DIVERGED} ends only replays: the code made a call
 * its recording cannot answer, and the replay stopped rather than call a tool. {@code PAUSED}: the run reached a write
 * that needs a human's approval and stopped before making it (its reads are recorded; approving resumes it).
 */
public enum RunStatus {
    SUCCESS, ERROR, TIMEOUT, REFUSED, CANCELLED, LIMIT, DIVERGED, PAUSED
}
