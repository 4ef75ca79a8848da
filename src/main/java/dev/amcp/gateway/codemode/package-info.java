/**
 * Code mode: runs an AI client's JavaScript out of process in the Deno runner, answers its {@code amcp} bridge
 * under the caller's role through the tool executor, and provides {@code code_execute} and the code-tool invoker.
 */
package dev.amcp.gateway.codemode;
