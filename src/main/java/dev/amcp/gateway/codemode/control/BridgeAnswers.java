package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import jakarta.json.JsonObject;

/**
 * Where a run's bridge calls get their answers: live (the {@link BridgeDispatcher}: tools are called), from a recording
 * ({@link RecordedAnswers}, a replay: no tool is ever called), or dry ({@link DryRunAnswers}: reads live, writes planned
 * and never made). A run is the same run in the real runner whichever source answers it; only the answers differ, and
 * the audit row says which source it was ({@link #kind()}). A run resumed after a human approved its write is a replay of its
 * recorded reads ({@link ResumeAnswers}).
 */
public interface BridgeAnswers {

    String LIVE = "live";
    String REPLAY = "replay";
    String DRY_RUN = "dry_run";
    /** A run resumed after a human approved its next write: its recording replayed, the write made, then live until the next write ({@link ResumeAnswers}). */
    String RESUME = "resume";

    /** Answers one bridge call ({@code search}, {@code describe}, {@code run}) for the run's bridge caller. */
    BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args);

    /** The run kind audited for runs answered this way: {@link #LIVE}, {@link #REPLAY}, {@link #DRY_RUN} or {@link #RESUME}. */
    String kind();
}
