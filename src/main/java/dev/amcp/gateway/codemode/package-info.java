/**
 * Code mode: runs an AI client's JavaScript out of process in the Deno runner, answers its {@code amcp} bridge
 * under the caller's role through the tool executor, and provides {@code code_execute} and the code-tool invoker;
 * replays, dry runs and human approval of writes answer the same bridge from recordings or plans.
 */
package dev.amcp.gateway.codemode;
