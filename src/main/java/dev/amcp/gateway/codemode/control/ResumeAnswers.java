package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.Divergence;
import dev.amcp.gateway.codemode.entity.PlannedWrite;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The answers of a run resumed after its write was approved: until the write, {@code amcp.run} is answered from the
 * paused run's recording ({@link RecordedAnswers}, under the bridge rules as they are now), and a call it cannot answer
 * ends the run DIVERGED. The first write must be the approved one (same tool, same canonical arguments), else the run
 * ends DIVERGED without it; the approved write and everything after it go live, through the executor. So a run that
 * diverges writes nothing. One per run.
 */
final class ResumeAnswers implements BridgeAnswers {

    private final BridgeAnswers live;
    private final RecordedAnswers recorded;
    private final ToolCatalog catalog;
    private final String approvedKey;
    private final AtomicInteger runCalls = new AtomicInteger();
    private volatile boolean wentLive;
    private volatile Divergence divergence;

    ResumeAnswers(BridgeAnswers live, RecordedAnswers recorded, ToolCatalog catalog, PlannedWrite approved) {
        this.live = live;
        this.recorded = recorded;
        this.catalog = catalog;
        this.approvedKey = RunRecording.key(approved.tool(), approved.args());
    }

    @Override
    public String kind() {
        return RESUME;
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        if (wentLive || !"run".equals(op)) {
            return live.answer(caller, op, args);
        }
        int index = runCalls.getAndIncrement();
        McpTool write = ApprovalAnswers.write(catalog, caller, op, args);
        if (write == null) {
            return recorded.answer(caller, op, args);
        }
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        synchronized (this) {
            if (!wentLive && divergence == null && approvedKey.equals(RunRecording.key(write.getName(), toolArgs))) {
                wentLive = true;
            }
        }
        if (wentLive) {
            return live.answer(caller, op, args);
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
}
