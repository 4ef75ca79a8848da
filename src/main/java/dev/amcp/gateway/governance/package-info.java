/**
 * Governance: who may do what. Roles and their capabilities and server scope, the {@code Caller} every request
 * runs as, and the installed license.
 */
package dev.amcp.gateway.governance;
