package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.platform.entity.ExpectedRefusal;

/**
 * A tool call the gateway cannot take as asked, for a reason of the call itself rather than of the tool (e.g. it
 * follows up a paused write that is not the caller's): entry points answer it as a bad request, never as a tool error.
 */
public class ToolCallRejectedException extends RuntimeException implements ExpectedRefusal {

    public ToolCallRejectedException(String message) {
        super(message);
    }
}
