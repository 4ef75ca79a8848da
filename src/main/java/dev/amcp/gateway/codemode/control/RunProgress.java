package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.tools.control.CallContext;

/**
 * The progress one code run reports to the MCP client that asked for it (a {@code progressToken}): each finished
 * bridge call ({@code progress} = calls finished, "customer_get done"), and what the code reports with
 * {@code amcp.progress(done, total, message)}. A program that reports its own progress owns the numbers: from its
 * first report on, finished bridge calls are no longer reported. Progress of a tool the code calls (an upstream MCP
 * tool that reports its own) is relayed as a fraction of that call, between the finished counts.
 * <p>
 * The client's side is bounded whatever the code does: MCP requires the progress value to grow, so a report that
 * does not go past the last one sent is dropped; at most {@link #MAX_NOTIFICATIONS} go out per run; messages are cut
 * to {@link #MAX_MESSAGE_CHARS} characters.
 */
final class RunProgress {

    static final int MAX_NOTIFICATIONS = 100;
    static final int MAX_MESSAGE_CHARS = 200;

    private final CallContext client;
    private int finishedCalls;
    private boolean codeReports;
    private int sent;
    private double last = Double.NEGATIVE_INFINITY;

    /** @param client the call the run serves ({@link CallContext#NONE}: nobody asked, nothing goes out) */
    RunProgress(CallContext client) {
        this.client = client;
    }

    /** A bridge call finished; {@code tool} is null for a search. */
    synchronized void bridgeCallDone(String op, String tool, boolean ok) {
        finishedCalls++;
        if (!codeReports) {
            String what = "run".equals(op) ? tool : tool == null ? op : op + " " + tool;
            relay(finishedCalls, null, what + (ok ? " done" : " failed"));
        }
    }

    /** {@code amcp.progress(done, total, message)}. */
    synchronized void fromCode(double done, Double total, String message) {
        codeReports = true;
        relay(done, total, message);
    }

    /** A tool the code called reported its own progress (its own scale): shown within the call in flight. */
    synchronized void fromTool(double progress, Double total, String message) {
        if (!codeReports) {
            double fraction = total == null || total <= 0 ? 0.5 : Math.max(0, Math.min(0.99, progress / total));
            relay(finishedCalls + fraction, null, message);
        }
    }

    private void relay(double progress, Double total, String message) {
        if (!(progress > last) || sent >= MAX_NOTIFICATIONS) {
            return;
        }
        last = progress;
        sent++;
        client.progress(progress, total, message == null || message.length() <= MAX_MESSAGE_CHARS ? message
                : message.substring(0, MAX_MESSAGE_CHARS));
    }
}
