package dev.amcp.gateway.tools.control;

/**
 * Told when a client cancels a call it made (MCP {@code notifications/cancelled}). CDI beans implementing it are
 * called for every cancellation the gateway receives, on whichever node receives it; the key matches
 * {@link CallContext#requestKey()} of the call. Code mode implements it to stop a run; plain HTTP tools finish.
 */
public interface CancellationListener {

    void cancelled(String requestKey, String reason);
}
