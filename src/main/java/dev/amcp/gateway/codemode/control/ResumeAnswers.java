package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.Divergence;
import dev.amcp.gateway.codemode.entity.PlannedWrite;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.control.ToolCatalog;
import jakarta.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The answers of a run resumed after a human approved its next write. Until that write, {@code amcp.run} is answered
 * from the paused run's recording ({@link RecordedAnswers}, under the bridge rules as they are now): its reads, and the
 * writes approved and made earlier in the chain, which are never made twice. A call it cannot answer ends the run
 * DIVERGED. The first write not in the recording must be the approved one (same tool, same canonical arguments), else
 * the run ends DIVERGED without it; a run that diverged writes nothing more. The approved write goes live through the
 * executor; after it, the run goes on like one that needs approval ({@link ApprovalAnswers}): reads live, and the next
 * write pauses it again for its own approval. Recorded like a live run, so the next resume replays this one. One per run.
 */
final class ResumeAnswers implements BridgeAnswers {

    private final BridgeAnswers live;
    private final RecordedAnswers recorded;
    private final ApprovalAnswers after;
    private final ToolCatalog catalog;
    private final String approvedKey;
    private final AtomicInteger runCalls = new AtomicInteger();
    private volatile boolean wentLive;
    private volatile Divergence divergence;

    ResumeAnswers(BridgeAnswers live, RecordedAnswers recorded, ApprovalAnswers after, ToolCatalog catalog, PlannedWrite approved) {
        this.live = live;
        this.recorded = recorded;
        this.after = after;
        this.catalog = catalog;
        this.approvedKey = RunRecording.key(approved.tool(), approved.args());
    }

    @Override
    public String kind() {
        return RESUME;
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        var write = ApprovalAnswers.write(catalog, caller, op, args);
        if (!"run".equals(op) || wentLive && write == null) {
            return after.answer(caller, op, args);
        }
        int index = runCalls.getAndIncrement();
        // A read before the approved write, or any write made earlier in the chain (also when calls made together
        // arrive in another order): answered from the recording.
        BridgeDispatcher.Answer done = recorded.answer(caller, args, index, write == null);
        if (done != null) {
            return done;
        }
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        boolean approved;
        synchronized (this) {
            approved = !wentLive && divergence() == null && approvedKey.equals(RunRecording.key(write.getName(), toolArgs));
            wentLive |= approved;
        }
        if (approved) {
            return live.answer(caller, op, args);
        }
        if (wentLive) { // a later write: it waits for its own approval
            return after.answer(caller, op, args);
        }
        Divergence d = new Divergence(index, write.getName(), toolArgs, Divergence.NOT_APPROVED);
        synchronized (this) {
            if (divergence == null) {
                divergence = d;
            }
        }
        return new BridgeDispatcher.Answer(false, null, "replay_diverged", d.describe(), write.getName(), true);
    }

    /** Where the resume left the recording or the approved write first, or {@code null}. */
    Divergence divergence() {
        return divergence != null ? divergence : recorded.divergence();
    }

    /** Whether the approved write was reached (and handed to the executor). */
    boolean wrote() {
        return wentLive;
    }

    /** The next write, after the approved one, that paused the run for its own approval, or {@code null}. */
    PlannedWrite planned() {
        return after.planned();
    }
}
