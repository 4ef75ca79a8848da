package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.Divergence;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * A replay's answers. {@code amcp.run} is answered from the recording only, never by a tool: each call takes the first
 * unused recorded call with the same tool and canonical arguments (so calls made together by {@code Promise.all} match
 * whatever order they arrive in). A call the recording cannot answer (none left, recorded over the size cap, or a tool
 * the viewer may not read) ends the replay as diverged, and {@link #divergence()} says where. {@code search} and
 * {@code describe} read no data and are answered live. One per run.
 */
final class RecordedAnswers implements BridgeAnswers {

    private final BridgeAnswers live;
    private final List<JsonObject> recorded;
    private final boolean[] used;
    private final Predicate<String> viewerMayRead;
    private final BiPredicate<Caller, String> bridgeMayCall;
    private final AtomicInteger runCalls = new AtomicInteger();
    private volatile Divergence divergence;

    /**
     * @param calls         the recording's {@code calls}
     * @param viewerMayRead whether the replaying caller may read a tool's results; others are withheld
     * @param bridgeMayCall whether a live run's bridge would let the run's caller call a tool (uses, read-only scope,
     *                      role), so that a replay refuses what the code could not do live, a recorded write included
     */
    RecordedAnswers(BridgeAnswers live, List<JsonObject> calls, Predicate<String> viewerMayRead, BiPredicate<Caller, String> bridgeMayCall) {
        this.live = live;
        this.recorded = new ArrayList<>(calls);
        this.used = new boolean[calls.size()];
        this.viewerMayRead = viewerMayRead;
        this.bridgeMayCall = bridgeMayCall;
    }

    @Override
    public String kind() {
        return REPLAY;
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        if (!"run".equals(op)) {
            return live.answer(caller, op, args);
        }
        return answer(caller, args, runCalls.getAndIncrement(), true);
    }

    /**
     * Answers the {@code index}-th {@code amcp.run} call from the recording; when nothing recorded has its tool and
     * arguments, diverges or, unless {@code diverge}, returns {@code null} (a resume then decides whether it is its approved write).
     */
    BridgeDispatcher.Answer answer(Caller caller, JsonObject args, int index, boolean diverge) {
        BridgeDispatcher.Answer rejected = BridgeDispatcher.identityRejected(args);
        if (rejected != null) {
            return rejected;
        }
        String tool = JsonSupport.string(args, "name", "");
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        var allowed = caller.scope().allowedTools();
        if (allowed != null && !allowed.contains(tool)) { // as a live run would answer: a replay follows the bridge rules too
            return BridgeDispatcher.notAvailable(tool);
        }
        String key = RunRecording.key(tool, toolArgs);
        JsonObject call = take(key);
        if (call == null && !diverge) {
            return null;
        }
        String reason = call == null ? Divergence.NOT_RECORDED
                : call.getBoolean("truncated", false) ? Divergence.TRUNCATED
                : !viewerMayRead.test(tool) ? Divergence.WITHHELD : null;
        if (reason != null) {
            Divergence d = new Divergence(index, tool, toolArgs, reason);
            synchronized (this) {
                if (divergence == null) {
                    divergence = d;
                }
            }
            return new BridgeDispatcher.Answer(false, null, "replay_diverged", d.describe(), tool, true);
        }
        if (!bridgeMayCall.test(caller, tool)) { // the rest of the live rules (read-only scope, role), e.g. a recorded write
            return BridgeDispatcher.notAvailable(tool);
        }
        if (call.getBoolean("ok", false)) {
            return BridgeDispatcher.Answer.value(call.get("value"), tool);
        }
        JsonObject error = call.getJsonObject("error");
        return BridgeDispatcher.Answer.error(JsonSupport.string(error, "code", "tool_error"), JsonSupport.string(error, "message", ""), tool);
    }

    private synchronized JsonObject take(String key) {
        for (int i = 0; i < recorded.size(); i++) {
            if (!used[i] && key.equals(JsonSupport.string(recorded.get(i), "key", null))) {
                used[i] = true;
                return recorded.get(i);
            }
        }
        return null;
    }

    /** Where the replay diverged first, or {@code null}. */
    Divergence divergence() {
        return divergence;
    }
}
