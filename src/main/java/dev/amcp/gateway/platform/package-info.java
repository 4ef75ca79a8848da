/**
 * Platform: configuration, start-up, database migrations, JSON helpers, health and operations plumbing. It imports
 * no feature package; features build on it.
 *
 * <ul>
 *   <li>{@code boundary.HealthChecks}: MicroProfile Health. Readiness needs the database and its migrations.
 *       <em>Later, with code mode:</em> a readiness check for runner reachability, reported as degraded (UP with
 *       data) rather than DOWN, so plain MCP keeps serving while the runner is away.</li>
 *   <li>{@code boundary.RequestIdFilter}: an {@code X-Request-Id} for every HTTP request of the WAR, answered in the
 *       response and carried through the request's log lines.</li>
 *   <li>{@code control.LogContext}: correlation fields (request id, run id) for the current thread; on Liberty they
 *       appear as {@code ext_<name>} in every JSON log line. Code mode adds the run id here.</li>
 *   <li>{@code boundary.RestApplication}: the Jakarta REST root and the OpenAPI description at {@code /openapi}.</li>
 *   <li>{@code control.SecretBox}: envelope encryption of secrets features store (AES-256-GCM under data keys wrapped
 *       by the operator's master key), and the re-wrap of a master-key rotation; it knows nothing of what it seals.</li>
 *   <li>{@code control.QuietRefusals}: an expected refusal ({@code IllegalArgumentException} or
 *       {@code entity.ExpectedRefusal}) leaves a {@code @Transactional} method rolled back as before, but without the
 *       FFDC incident Liberty writes for every runtime exception there.</li>
 * </ul>
 */
package dev.amcp.gateway.platform;
