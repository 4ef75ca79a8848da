package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.governance.entity.Caller;
import jakarta.json.JsonValue;

/**
 * A code run to perform.
 *
 * @param invoker      who asked for the run (audited as the invoker)
 * @param bridgeCaller who the bridge answers as: the invoker's or the definer's role, with the run's narrow scope
 * @param inline       {@code code_execute} rather than a saved code tool
 * @param runAsMode    {@code invoker} or {@code definer}
 */
public record CodeRunRequest(Caller invoker, Caller bridgeCaller, String code, JsonValue input, boolean inline,
                             Long serverId, Long toolId, String toolName, String runAsMode) {}
