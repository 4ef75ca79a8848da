package dev.amcp.gateway.editor.control;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shapes the code-run audit for pages: the bridge trace as rows, and the runs page's date filter. */
public final class RunViews {

    private RunViews() {}

    /** The calls of a stored trace ({@code {"calls":[{id, op, tool, outcome, ms, bytes}]}}) as plain text rows. */
    public static List<Map<String, String>> traceRows(JsonObject trace) {
        List<Map<String, String>> rows = new ArrayList<>();
        if (trace == null || !(trace.get("calls") instanceof jakarta.json.JsonArray calls)) {
            return rows;
        }
        for (JsonValue call : calls) {
            if (call instanceof JsonObject c) {
                Map<String, String> row = new LinkedHashMap<>();
                for (String key : List.of("id", "op", "tool", "outcome", "ms", "bytes")) {
                    JsonValue v = c.get(key);
                    row.put(key, v instanceof JsonString s ? s.getString() : v instanceof JsonNumber n ? n.toString() : "");
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The start of a day typed as {@code yyyy-MM-dd} (UTC), plus {@code days}; {@code null} when blank or not a date. */
    public static Instant dayStart(String day, int days) {
        if (day == null || day.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(day.strip()).plusDays(days).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
