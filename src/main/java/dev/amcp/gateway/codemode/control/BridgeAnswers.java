package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import jakarta.json.JsonObject;

/**
 * Where a run's bridge calls get their answers: live (the {@link BridgeDispatcher}: tools are called), from a recording
 * ({@link RecordedAnswers}, a replay: no tool is ever called), or dry ({@link DryRunAnswers}: reads live, writes planned
 * and never made). A run is the same run in the real runner whichever source answers it; only the answers differ, and
 * the audit row says which source it was ({@link #kind()}). Approvals of writes can reuse them: a run resumed after an
 * approval is a replay of its recorded reads.
 */
public interface BridgeAnswers {

    String LIVE = "live";
    String REPLAY = "replay";
    String DRY_RUN = "dry_run";

    /** Answers one bridge call ({@code search}, {@code describe}, {@code run}) for the run's bridge caller. */
    BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args);

    /** The run kind audited for runs answered this way: {@link #LIVE}, {@link #REPLAY} or {@link #DRY_RUN}. */
    String kind();
}
