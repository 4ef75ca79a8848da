package dev.amcp.gateway.tools.entity;

/**
 * A tool call the gateway cannot take as asked, for a reason of the call itself rather than of the tool (e.g. it
 * follows up a paused write that is not the caller's): entry points answer it as a bad request, never as a tool error.
 */
public class ToolCallRejectedException extends RuntimeException {

    public ToolCallRejectedException(String message) {
        super(message);
    }
}
