/**
 * Audit and metrics: the {@code code_runs} record of every code run, and the counters and timers fed by
 * {@link dev.amcp.gateway.tools.entity.ToolCallCompleted} events.
 */
package dev.amcp.gateway.audit;
