package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.codemode.entity.Divergence;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Recording a run's calls (order, canonical keys, the size cap) and answering a replay from it, never from a tool. */
class RecordedAnswersTest {

    static final Caller CALLER = RunSessionTest.CALLER;

    /** A live source that counts the calls it answers, each with {"n": count}. */
    static final class Counting implements BridgeAnswers {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
            int n = "run".equals(op) ? runs.incrementAndGet() : 0;
            return BridgeDispatcher.Answer.value(Json.createObjectBuilder().add("n", n).add("op", op).build(), null);
        }

        @Override
        public String kind() {
            return LIVE;
        }
    }

    static JsonObject run(String tool, String argsJson) {
        return Json.createObjectBuilder().add("name", tool).add("args", JsonSupport.parseObject(argsJson)).build();
    }

    static List<JsonObject> record(int maxBytes, JsonObject... calls) {
        RunRecording recording = new RunRecording(new Counting(), maxBytes);
        for (JsonObject call : calls) {
            recording.answer(CALLER, "run", call);
        }
        recording.answer(CALLER, "search", Json.createObjectBuilder().build());
        return recording.document(Json.createValue("in"), Json.createValue("out")).getJsonArray("calls").getValuesAs(JsonObject.class);
    }

    @Test
    void aRecordingKeepsRunCallsInOrderWithCanonicalKeysAndCutsCallsOverTheCap() {
        List<JsonObject> calls = record(64, run("a", "{\"x\":1,\"y\":2}"), run("b", "{\"big\":\"" + "z".repeat(100) + "\"}"));
        assertEquals(2, calls.size(), "search is not recorded");
        assertEquals("a", calls.get(0).getString("tool"));
        assertEquals(1, calls.get(0).getJsonObject("value").getInt("n"));
        assertEquals(RunRecording.key("a", JsonSupport.parseObject("{\"y\":2.0,\"x\":1}")), calls.get(0).getString("key"),
                "keys and numbers are compared canonically");
        assertTrue(calls.get(1).getBoolean("truncated"));
        assertFalse(calls.get(1).containsKey("value"));
    }

    @Test
    void aReplayIsAnsweredFromTheRecordingInAnyOrderAndStopsWhereItDivergesWithoutALiveCall() {
        List<JsonObject> calls = record(10_000, run("a", "{\"x\":1}"), run("a", "{\"x\":2}"), run("b", "{}"));
        Counting live = new Counting();
        RecordedAnswers replay = new RecordedAnswers(live, calls, tool -> true, (caller, tool) -> true);
        assertEquals(2, replay.answer(CALLER, "run", run("a", "{\"x\":2}")).value().asJsonObject().getInt("n"));
        assertEquals(1, replay.answer(CALLER, "run", run("a", "{\"x\":1}")).value().asJsonObject().getInt("n"));
        assertEquals("search", replay.answer(CALLER, "search", Json.createObjectBuilder().build()).value().asJsonObject().getString("op"),
                "search is answered live");
        assertNull(replay.divergence());
        var again = replay.answer(CALLER, "run", run("a", "{\"x\":1}"));
        assertTrue(again.endsRun(), "each recorded call answers once");
        assertEquals(new Divergence(2, "a", JsonSupport.parseObject("{\"x\":1}"), Divergence.NOT_RECORDED), replay.divergence());
        assertEquals(0, live.runs.get(), "no run call reached the live source");
    }

    @Test
    void truncatedAndWithheldResultsEndTheReplay() {
        List<JsonObject> calls = record(40, run("a", "{}"), run("b", "{\"big\":\"" + "z".repeat(100) + "\"}"));
        RecordedAnswers replay = new RecordedAnswers(new Counting(), calls, tool -> !tool.equals("a"), (caller, tool) -> true);
        assertTrue(replay.answer(CALLER, "run", run("a", "{}")).endsRun());
        assertEquals(Divergence.WITHHELD, replay.divergence().reason());
        RecordedAnswers other = new RecordedAnswers(new Counting(), calls, tool -> true, (caller, tool) -> true);
        assertTrue(other.answer(CALLER, "run", run("b", "{\"big\":\"" + "z".repeat(100) + "\"}")).endsRun());
        assertEquals(Divergence.TRUNCATED, other.divergence().reason());
    }

    @Test
    void aReplayRefusesWhatTheBridgeWouldRefuseLiveARecordedWriteIncluded() {
        List<JsonObject> calls = record(10_000, run("read", "{}"), run("write", "{}"));
        // as for a draft that turned allowWrites off: the live bridge would no longer let the code call "write"
        RecordedAnswers replay = new RecordedAnswers(new Counting(), calls, tool -> true, (caller, tool) -> !tool.equals("write"));
        assertTrue(replay.answer(CALLER, "run", run("read", "{}")).ok());
        BridgeDispatcher.Answer write = replay.answer(CALLER, "run", run("write", "{}"));
        assertFalse(write.ok(), "the recorded write is not answered");
        assertFalse(write.endsRun(), "refused as a live run would be, not a divergence");
        assertNull(replay.divergence());
    }
}
