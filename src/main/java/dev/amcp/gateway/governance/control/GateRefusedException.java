package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.platform.entity.ExpectedRefusal;
import dev.amcp.gateway.platform.entity.Message;

/**
 * A role or license gate refused an action. The exception's message is the English text for REST and MCP clients;
 * {@link #reason()} lets the editor show it in the page's language.
 */
public class GateRefusedException extends RuntimeException implements ExpectedRefusal {

    private final transient Message reason;

    public GateRefusedException(Message reason) {
        super(reason.english());
        this.reason = reason;
    }

    public Message reason() {
        return reason;
    }
}
