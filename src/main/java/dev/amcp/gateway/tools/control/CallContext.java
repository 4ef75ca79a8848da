package dev.amcp.gateway.tools.control;

import java.util.function.Supplier;

/**
 * What an entry point knows about the call in flight on this thread, for tools that run long: a sink for progress
 * reports and the cancellation state. The MCP endpoint binds one around {@code tools/call}; code mode reads
 * {@link #current()} to report progress and to learn of a {@code notifications/cancelled}. Outside a bound call
 * {@link #current()} is {@link #NONE}, whose reports go nowhere and which is never cancelled.
 */
public final class CallContext {

    /** Receives progress reports of the call; implementations must not throw. */
    @FunctionalInterface
    public interface ProgressSink {
        void progress(double progress, Double total, String message);
    }

    public static final CallContext NONE = new CallContext(null, null);

    private static final ThreadLocal<CallContext> CURRENT = new ThreadLocal<>();

    private final String requestKey;
    private final ProgressSink sink;
    private final boolean dryRun;
    private volatile Approval approval;
    private volatile String cancelReason;
    private volatile boolean cancelled;

    /**
     * @param requestKey opaque key naming this call for cancellation (same key as {@link CancellationListener} gets)
     * @param sink       where progress goes, or {@code null} when the client asked for none
     */
    public CallContext(String requestKey, ProgressSink sink) {
        this(requestKey, sink, false);
    }

    /**
     * @param dryRun the client asked for a dry run ({@code _meta["amcp/dryRun"]}): writes are planned, never made
     */
    public CallContext(String requestKey, ProgressSink sink, boolean dryRun) {
        this.requestKey = requestKey;
        this.sink = sink;
        this.dryRun = dryRun;
    }

    /** Whether this call is a dry run: no write may be made, only planned ({@link ToolExecutor}, code mode). */
    public boolean dryRun() {
        return dryRun;
    }

    /**
     * What a call says of a paused write it follows up ({@code docs/code-mode.md#approvals}): the approval's id, and the
     * answer when the call carries one ({@code true} approve, {@code false} refuse, {@code null} only collect the result).
     * {@code decidedBy} names who answered (an MCP client's user, or the admin whose approval resumes the run).
     */
    public record Approval(String id, Boolean approve, String decidedBy) {}

    /** This call follows up the paused write {@code approval}; set before {@link #run}. */
    public CallContext following(Approval approval) {
        this.approval = approval;
        return this;
    }

    /** The paused write this call follows up, or {@code null}. */
    public Approval approval() {
        return approval;
    }

    public static CallContext current() {
        CallContext context = CURRENT.get();
        return context == null ? NONE : context;
    }

    /** Runs the body with this context bound to the current thread. */
    public <T> T run(Supplier<T> body) {
        CallContext previous = CURRENT.get();
        CURRENT.set(this);
        try {
            return body.get();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    public String requestKey() {
        return requestKey;
    }

    /** Reports progress to the client if it asked for it; never fails the call. */
    public void progress(double progress, Double total, String message) {
        if (sink == null || cancelled) {
            return;
        }
        try {
            sink.progress(progress, total, message);
        } catch (RuntimeException ignored) {
            // the client went away; the call itself goes on
        }
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public String cancelReason() {
        return cancelReason;
    }

    /** Marks the call cancelled; the running tool decides how soon it stops. */
    public void cancel(String reason) {
        if (this != NONE) {
            this.cancelReason = reason;
            this.cancelled = true;
        }
    }
}
