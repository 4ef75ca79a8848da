/**
 * Governance: who may do what. Two levels: the operator runs the instance (workspaces, the license) and belongs to no
 * workspace; inside a workspace, roles and their capabilities and server scope decide. The {@code Caller} every request
 * runs as (held for the request by {@code CurrentCaller}; {@code workspace}'s Bearer filter sets it), the gates on
 * services ({@code @RequiresOperator}, {@code @RequiresCapability}, {@code @LicensedFeature}), and the installed
 * license, and the admin audit log: services fire an {@code AdminChange} for each change, written in the change's own
 * transaction.
 */
package dev.amcp.gateway.governance;
