/** Editor logic without servlet types where possible: HTTP-tool forms, CSRF tokens, language choice, navigation. */
package dev.amcp.gateway.editor.control;
