package dev.amcp.gateway.platform.control;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context rules for a context the gateway passes on without tracing itself: a {@code traceparent} it
 * can parse (version 00, or a later version's first four fields, sent on as 00), never all-zero ids, and a
 * {@code tracestate} of at most 512 printable ASCII characters (otherwise dropped, as the spec allows). Anything else
 * is no context at all, so nothing a caller writes reaches an upstream's headers unchecked.
 */
final class W3c {

    static final int MAX_TRACESTATE = 512;
    private static final Pattern TRACEPARENT = Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_PARENT = "0".repeat(16);

    private W3c() {}

    /** The context to send on, or null when its {@code traceparent} is missing or malformed. */
    static Map<String, String> valid(Map<String, String> headers) {
        String traceparent = traceparent(headers.get(Tracing.TRACEPARENT));
        if (traceparent == null) {
            return null;
        }
        Map<String, String> context = new LinkedHashMap<>();
        context.put(Tracing.TRACEPARENT, traceparent);
        String tracestate = headers.get(Tracing.TRACESTATE);
        if (tracestate != null && tracestate.length() <= MAX_TRACESTATE && !tracestate.isBlank()
                && tracestate.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            context.put(Tracing.TRACESTATE, tracestate.strip());
        }
        return Map.copyOf(context);
    }

    /** The {@code traceparent} in its version-00 form, or null. */
    static String traceparent(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        if (v.length() < 55) {
            return null;
        }
        var m = TRACEPARENT.matcher(v.substring(0, 55));
        if (!m.matches() || m.group(1).equals("ff") || m.group(2).equals(ZERO_TRACE) || m.group(3).equals(ZERO_PARENT)) {
            return null;
        }
        boolean v00 = m.group(1).equals("00");
        if (v00 ? v.length() != 55 : v.length() > 55 && v.charAt(55) != '-') {
            return null;
        }
        return v00 ? v : "00-" + m.group(2) + "-" + m.group(3) + "-" + m.group(4);
    }
}
