/**
 * The admin editor UI under {@code /admin}: Jakarta Pages views driven by thin servlets for servers, tools, API keys
 * and (with code mode) code tools, runs, proposals and the license.
 * <ul>
 *   <li>{@code boundary}: servlets and the filters (security headers, language, sign-in by password or single
 *       sign-on, CSRF).</li>
 *   <li>{@code control}: form parsing and validation, CSRF tokens, language choice, navigation.</li>
 *   <li>{@code entity}: form and view models the pages render.</li>
 * </ul>
 * Every write goes through the services of {@code tools} and {@code workspace}, whose {@code @RequiresCapability}
 * gates decide; the pages only hide buttons a role cannot use. A signed-in person becomes a
 * {@link dev.amcp.gateway.governance.entity.Caller} through
 * {@link dev.amcp.gateway.workspace.control.WorkspaceService#callerForUser(String)}.
 */
package dev.amcp.gateway.editor;
