package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Records a run for replay while another source answers it: each {@code amcp.run} call in the order the code made it,
 * with its tool, canonical arguments and answer (value or error). A call whose arguments and result together exceed
 * {@code maxBytes} keeps only its key ({@code tool} and the hash of its canonical arguments) and is marked
 * {@code truncated}: a replay that reaches it stops there. {@code search} and {@code describe} read no data and are not
 * recorded; a replay answers them live. The document ({@link #document}):
 * <pre>{"v":1, "input":…, "inputTruncated":false, "result":…, "resultTruncated":false,
 *  "calls":[{"tool","key","args","ok":true,"value"} | {"tool","key","args","ok":false,"error":{"code","message"}}
 *           | {"tool","key","truncated":true}]}</pre>
 */
final class RunRecording implements BridgeAnswers {

    private final BridgeAnswers source;
    private final int maxBytes;
    private final List<JsonObject> calls = new ArrayList<>();

    RunRecording(BridgeAnswers source, int maxBytes) {
        this.source = source;
        this.maxBytes = maxBytes;
    }

    @Override
    public String kind() {
        return source.kind();
    }

    /** The key a recorded call is matched by: its tool and its arguments, canonically. */
    static String key(String tool, JsonObject args) {
        return Hashes.sha256(tool + "\n" + CanonicalJson.of(args == null ? JsonValue.NULL : args));
    }

    @Override
    public BridgeDispatcher.Answer answer(Caller caller, String op, JsonObject args) {
        if (!"run".equals(op)) {
            return source.answer(caller, op, args);
        }
        String tool = JsonSupport.string(args, "name", "");
        JsonObject toolArgs = BridgeDispatcher.runArgs(args);
        String key = key(tool, toolArgs);
        int slot;
        synchronized (calls) { // the slot is taken when the call is made, so the recording keeps the code's order;
            slot = calls.size(); // until answered it stands as truncated (a run that ends first leaves it so)
            calls.add(JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("key", key).add("truncated", true).build());
        }
        BridgeDispatcher.Answer answer = source.answer(caller, op, args);
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("tool", tool).add("key", key);
        JsonValue result = answer.ok() ? answer.value() : JsonSupport.JSON.createObjectBuilder()
                .add("code", String.valueOf(answer.errorCode())).add("message", String.valueOf(answer.message())).build();
        long bytes = JsonSupport.utf8Length(String.valueOf(toolArgs)) + JsonSupport.utf8Length(String.valueOf(result));
        if (bytes > maxBytes) {
            b.add("truncated", true);
        } else {
            if (toolArgs != null) {
                b.add("args", toolArgs);
            }
            b.add("ok", answer.ok()).add(answer.ok() ? "value" : "error", result == null ? JsonValue.NULL : result);
        }
        synchronized (calls) {
            calls.set(slot, b.build());
        }
        return answer;
    }

    /** The recording of the run that took {@code input} and returned {@code result} ({@code null} if it returned nothing). */
    JsonObject document(JsonValue input, JsonValue result) {
        JsonArrayBuilder list = JsonSupport.JSON.createArrayBuilder();
        synchronized (calls) {
            calls.forEach(list::add);
        }
        JsonObjectBuilder doc = JsonSupport.JSON.createObjectBuilder().add("v", 1);
        capped(doc, "input", input == null ? JsonValue.NULL : input);
        if (result != null) {
            capped(doc, "result", result);
        }
        return doc.add("calls", list).build();
    }

    private void capped(JsonObjectBuilder doc, String name, JsonValue value) {
        boolean over = JsonSupport.utf8Length(value.toString()) > maxBytes;
        if (!over) {
            doc.add(name, value);
        }
        doc.add(name + "Truncated", over);
    }
}
