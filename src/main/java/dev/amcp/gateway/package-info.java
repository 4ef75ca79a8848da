/**
 * AMCP Gateway: an MCP gateway that turns HTTP APIs into MCP tools, groups them into servers per workspace,
 * and runs code-mode programs in an out-of-process sandbox. Feature packages sit below this one, each split
 * into {@code boundary} (entry points), {@code control} (logic) and {@code entity} (JPA entities and records).
 */
package dev.amcp.gateway;
