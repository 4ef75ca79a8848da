package dev.amcp.gateway.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * A tiny OTLP/HTTP trace receiver ({@code POST /v1/traces}, {@code http/protobuf}) that keeps every span it is sent,
 * so a test reads what the gateway's real exporter delivered. It decodes only the fields the tests look at.
 */
final class OtlpReceiver {

    /** One received span; ids in lower-case hex, attributes as text, {@code service} from the resource. */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, int kind,
                        Map<String, String> attributes, String service) {

        String attribute(String key) {
            return attributes.get(key);
        }
    }

    static final int KIND_SERVER = 2;
    static final int KIND_CLIENT = 3;

    private final List<ReceivedSpan> spans = new ArrayList<>();

    private OtlpReceiver() {}

    /** Starts listening on 127.0.0.1:port for as long as the test JVM runs. */
    static OtlpReceiver start(int port) {
        OtlpReceiver receiver = new OtlpReceiver();
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            server.createContext("/v1/traces", exchange -> {
                byte[] body;
                try (InputStream in = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                        ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                List<ReceivedSpan> decoded = decodeRequest(body);
                synchronized (receiver) {
                    receiver.spans.addAll(decoded);
                    receiver.notifyAll();
                }
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1); // an empty ExportTraceServiceResponse
                exchange.close();
            });
            server.start();
        } catch (IOException e) {
            throw new IllegalStateException("OTLP receiver cannot listen on " + port, e);
        }
        return receiver;
    }

    synchronized List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    /**
     * Waits until the spans received satisfy the condition, at most {@code maxMillis}; returns them either way, so
     * the caller's assertion (not a timeout) decides.
     */
    synchronized List<ReceivedSpan> await(Predicate<List<ReceivedSpan>> condition, long maxMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + maxMillis;
        while (!condition.test(spans) && System.currentTimeMillis() < deadline) {
            wait(Math.max(1, deadline - System.currentTimeMillis()));
        }
        return List.copyOf(spans);
    }

    // --- protobuf, just enough of opentelemetry/proto/collector/trace/v1 ---

    static List<ReceivedSpan> decodeRequest(byte[] body) {
        List<ReceivedSpan> out = new ArrayList<>();
        for (Field resourceSpans : fields(body)) {
            if (resourceSpans.number == 1) { // ExportTraceServiceRequest.resource_spans
                String service = "";
                List<byte[]> scopes = new ArrayList<>();
                for (Field f : fields(resourceSpans.bytes)) {
                    if (f.number == 1) { // ResourceSpans.resource
                        service = attributes(f.bytes, 1).getOrDefault("service.name", "");
                    } else if (f.number == 2) { // ResourceSpans.scope_spans
                        scopes.add(f.bytes);
                    }
                }
                for (byte[] scope : scopes) {
                    for (Field f : fields(scope)) {
                        if (f.number == 2) { // ScopeSpans.spans
                            out.add(span(f.bytes, service));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static ReceivedSpan span(byte[] bytes, String service) {
        String traceId = "", spanId = "", parent = "", name = "";
        int kind = 0;
        for (Field f : fields(bytes)) {
            switch (f.number) {
                case 1 -> traceId = HexFormat.of().formatHex(f.bytes);
                case 2 -> spanId = HexFormat.of().formatHex(f.bytes);
                case 4 -> parent = HexFormat.of().formatHex(f.bytes);
                case 5 -> name = new String(f.bytes, StandardCharsets.UTF_8);
                case 6 -> kind = (int) f.varint;
                default -> { }
            }
        }
        return new ReceivedSpan(traceId, spanId, parent, name, kind, attributes(bytes, 9), service);
    }

    /** The KeyValue list in field {@code number} of a message, values as text. */
    private static Map<String, String> attributes(byte[] message, int number) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (Field kv : fields(message)) {
            if (kv.number == number && kv.bytes != null) {
                String key = null;
                String value = null;
                for (Field f : fields(kv.bytes)) {
                    if (f.number == 1) {
                        key = new String(f.bytes, StandardCharsets.UTF_8);
                    } else if (f.number == 2) {
                        value = anyValue(f.bytes);
                    }
                }
                if (key != null) {
                    attributes.put(key, value);
                }
            }
        }
        return attributes;
    }

    private static String anyValue(byte[] bytes) {
        for (Field f : fields(bytes)) {
            switch (f.number) {
                case 1 -> { return new String(f.bytes, StandardCharsets.UTF_8); }
                case 2 -> { return String.valueOf(f.varint != 0); }
                case 3 -> { return String.valueOf(f.varint); }
                case 4 -> { return String.valueOf(Double.longBitsToDouble(f.varint)); }
                default -> { }
            }
        }
        return "";
    }

    /** One field of a message: its number, and its value as a varint/fixed number or as bytes. */
    private record Field(int number, long varint, byte[] bytes) {}

    private static List<Field> fields(byte[] message) {
        List<Field> fields = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        while (in.hasRemaining()) {
            long tag = varint(in);
            int number = (int) (tag >>> 3);
            switch ((int) (tag & 7)) {
                case 0 -> fields.add(new Field(number, varint(in), null));
                case 1 -> fields.add(new Field(number, in.getLong(), null));
                case 2 -> {
                    byte[] bytes = new byte[(int) varint(in)];
                    in.get(bytes);
                    fields.add(new Field(number, 0, bytes));
                }
                case 5 -> fields.add(new Field(number, in.getInt(), null));
                default -> throw new IllegalArgumentException("unsupported protobuf wire type in tag " + tag);
            }
        }
        return fields;
    }

    private static long varint(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.get() & 0xff;
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint too long");
    }
}
