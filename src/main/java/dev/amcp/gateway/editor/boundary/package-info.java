/**
 * Entry points of the editor: one servlet per page family, kept thin (parse, call a service, pick a view), the
 * filters every {@code /admin} request passes (security headers, language, CSRF) and the login definition.
 */
package dev.amcp.gateway.editor.boundary;
