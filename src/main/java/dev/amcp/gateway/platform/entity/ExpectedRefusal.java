package dev.amcp.gateway.platform.entity;

/**
 * Marks an exception that is an expected answer rather than a fault: a gate, a call the gateway cannot take as asked,
 * a protocol error for the client. Entry points answer it with a 4xx or a tool error, and it is never an incident in
 * Liberty's log ({@code platform.control.QuietRefusals}). Every {@link IllegalArgumentException} counts as one too.
 */
public interface ExpectedRefusal {
}
