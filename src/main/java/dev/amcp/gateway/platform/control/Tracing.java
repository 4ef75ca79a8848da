package dev.amcp.gateway.platform.control;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import jakarta.enterprise.inject.spi.CDI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Spans of the gateway's own hops (MCP request, tool call, code run, bridge call, upstream call) through MicroProfile
 * Telemetry, which Liberty's {@code mpTelemetry-2.1} offers as a <em>stable</em> API (visible to a drop-in WAR). The
 * only class that touches OpenTelemetry: the rest of the gateway sees {@link Span}, {@link Carried} and W3C headers.
 *
 * <p>Spans are made only while the OpenTelemetry SDK is on ({@code OTEL_SDK_DISABLED=false}). Off (the default, and
 * where the API is missing altogether: a server without the feature, unit tests), nothing is made or exported, but the
 * caller's W3C trace context ({@code _meta} or HTTP headers) still goes upstream unchanged, as W3C Trace Context asks
 * of a hop that does not trace itself: a caller's tracing never depends on the gateway's. Each span gets the request
 * id and run id of {@link LogContext} as {@value #REQUEST_ID} and {@value #RUN_ID}.
 */
public final class Tracing {

    public static final String REQUEST_ID = "amcp.request.id";
    public static final String RUN_ID = "amcp.run.id";
    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    private static final Logger LOG = Logger.getLogger(Tracing.class.getName());
    private static final ThreadLocal<Map<String, String>> INCOMING = new ThreadLocal<>();
    /** Resolved on first use (the CDI container must be up): the OpenTelemetry backend, or {@link #OFF}. */
    private static volatile Backend backend;

    /** A span in progress, current on this thread until closed; closing never throws. */
    public interface Span extends AutoCloseable {
        Span attribute(String key, String value);

        Span attribute(String key, long value);

        /** Marks the span failed, with a short description (never a secret). */
        void fail(String description);

        /** The W3C headers ({@code traceparent}, {@code tracestate}) naming this span, for an outbound request. */
        Map<String, String> headers();

        @Override
        void close();
    }

    /** The trace of one thread, taken to another (work handed to an executor). */
    @FunctionalInterface
    public interface Carried {
        /** Makes the trace current on this thread until the returned scope closes. */
        LogContext.Scope restore();
    }

    private static final LogContext.Scope NO_SCOPE = () -> {};

    /** No span and no context to pass on. */
    private static final Span NO_SPAN = new PassedSpan(Map.of(), NO_SCOPE);

    /** Kinds of span, named here so that callers never link an OpenTelemetry type. */
    private enum Kind { SERVER, INTERNAL, CLIENT }

    private interface Backend {
        Span start(String name, Kind kind, Map<String, String> parent);

        Carried capture();
    }

    /** Tracing off: no spans, the caller's context passed through (see {@link Passthrough}). */
    private static final Backend OFF = new Passthrough();

    private Tracing() {}

    /** Whether spans are made (the SDK is on). */
    public static boolean enabled() {
        return backend() != OFF;
    }

    /**
     * The span of one MCP request. Its parent is the request's {@code _meta} trace context ({@code traceparent},
     * {@code tracestate}) when it names one (SEP-414), else the current span, else the HTTP request's headers.
     */
    public static Span request(String name, String metaTraceparent, String metaTracestate) {
        Map<String, String> parent = null;
        if (metaTraceparent != null) {
            parent = new LinkedHashMap<>();
            parent.put(TRACEPARENT, metaTraceparent);
            if (metaTracestate != null) {
                parent.put(TRACESTATE, metaTracestate);
            }
        }
        return backend().start(name, Kind.SERVER, parent);
    }

    /** A span inside the gateway (tool call, code run, bridge call), child of the current one. */
    public static Span internal(String name) {
        return backend().start(name, Kind.INTERNAL, null);
    }

    /** A span of an outbound call; send its {@link Span#headers()} with the request. */
    public static Span client(String name) {
        return backend().start(name, Kind.CLIENT, null);
    }

    /** The current trace, to restore on another thread. */
    public static Carried capture() {
        return backend().capture();
    }

    /**
     * Keeps an HTTP request's trace headers for this thread, the parent of an MCP request span that finds none in
     * {@code _meta} and no current span; closing forgets them.
     */
    public static LogContext.Scope incoming(String traceparent, String tracestate) {
        if (traceparent == null) {
            return NO_SCOPE;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(TRACEPARENT, traceparent);
        if (tracestate != null) {
            headers.put(TRACESTATE, tracestate);
        }
        return swap(INCOMING, headers);
    }

    /** Sets a thread's value until the returned scope closes, which restores the one before (or none). */
    private static <T> LogContext.Scope swap(ThreadLocal<T> local, T value) {
        T previous = local.get();
        local.set(value);
        return () -> {
            if (previous == null) {
                local.remove();
            } else {
                local.set(previous);
            }
        };
    }

    private static Backend backend() {
        Backend b = backend;
        if (b == null) {
            synchronized (Tracing.class) {
                b = backend;
                if (b == null) {
                    b = resolve();
                    backend = b;
                }
            }
        }
        return b;
    }

    private static Backend resolve() {
        try {
            Class.forName("io.opentelemetry.api.OpenTelemetry", false, Tracing.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.info("Tracing is off: the OpenTelemetry API is not visible (enable the mpTelemetry-2.1 feature)");
            return OFF;
        }
        try {
            return Otel.of();
        } catch (RuntimeException | LinkageError e) {
            LOG.log(Level.INFO, "Tracing is off: no OpenTelemetry instance (" + e + ")", e);
            return OFF;
        }
    }

    /**
     * Tracing off: the caller's trace context, validated, is current for the request and its hops (bridge calls on
     * other threads too, through {@link #capture()}), and every outbound call sends it unchanged. No span is made.
     */
    private static final class Passthrough implements Backend {

        /** The caller's context on this thread while a request or a hop of it runs; null outside. */
        private static final ThreadLocal<Map<String, String>> CURRENT = new ThreadLocal<>();

        @Override
        public Span start(String name, Kind kind, Map<String, String> parent) {
            Map<String, String> context = parent == null ? null : W3c.valid(parent);
            if (context == null) {
                context = CURRENT.get();
            }
            if (context == null && INCOMING.get() != null) {
                context = W3c.valid(INCOMING.get());
            }
            return context == null ? NO_SPAN : new PassedSpan(context, swap(CURRENT, context));
        }

        @Override
        public Carried capture() {
            Map<String, String> context = CURRENT.get();
            return context == null ? () -> NO_SCOPE : () -> swap(CURRENT, context);
        }
    }

    /** A hop while tracing is off: it names the caller's context (if any) to the next hop, and makes no span. */
    private record PassedSpan(Map<String, String> context, LogContext.Scope scope) implements Span {

        @Override
        public Span attribute(String key, String value) {
            return this;
        }

        @Override
        public Span attribute(String key, long value) {
            return this;
        }

        @Override
        public void fail(String description) {}

        @Override
        public Map<String, String> headers() {
            return context;
        }

        @Override
        public void close() {
            scope.close();
        }
    }

    /** Loaded only when the API is visible, so a server without it never links these types. */
    private static final class Otel implements Backend {

        private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
            @Override
            public Iterable<String> keys(Map<String, String> carrier) {
                return carrier.keySet();
            }

            @Override
            public String get(Map<String, String> carrier, String key) {
                return carrier == null ? null : carrier.get(key);
            }
        };

        private final Tracer tracer;
        private final TextMapPropagator propagator;

        private Otel(OpenTelemetry otel) {
            this.tracer = otel.getTracer("amcp-gateway");
            this.propagator = otel.getPropagators().getTextMapPropagator();
        }

        static Backend of() {
            OpenTelemetry otel = CDI.current().select(OpenTelemetry.class).get();
            // With the SDK off Liberty hands out a no-op instance, whose spans have no valid ids.
            var probe = otel.getTracer("amcp-gateway").spanBuilder("probe").setNoParent().startSpan();
            boolean on = probe.getSpanContext().isValid();
            if (!on) {
                LOG.info("Tracing is off: the OpenTelemetry SDK is disabled (set OTEL_SDK_DISABLED=false to turn it on)");
                return OFF;
            }
            LOG.info("Tracing is on: spans go to the configured OpenTelemetry exporter");
            return new Otel(otel);
        }

        @Override
        public Span start(String name, Kind kind, Map<String, String> parentHeaders) {
            Context parent = parentHeaders == null ? null : fromHeaders(parentHeaders);
            if (parent == null) {
                parent = Context.current();
                if (kind == Kind.SERVER && INCOMING.get() != null
                        && !io.opentelemetry.api.trace.Span.fromContext(parent).getSpanContext().isValid()) {
                    Context http = fromHeaders(INCOMING.get());
                    parent = http == null ? parent : http;
                }
            }
            var span = tracer.spanBuilder(name).setSpanKind(SpanKind.valueOf(kind.name())).setParent(parent).startSpan();
            String requestId = LogContext.requestId();
            if (requestId != null) {
                span.setAttribute(REQUEST_ID, requestId);
            }
            String runId = LogContext.get(LogContext.RUN_ID);
            if (runId != null) {
                span.setAttribute(RUN_ID, runId);
            }
            return new OtelSpan(span, span.storeInContext(parent).makeCurrent(), propagator);
        }

        /** The context a set of W3C headers names, or null when its {@code traceparent} is malformed. */
        private Context fromHeaders(Map<String, String> headers) {
            Context extracted = propagator.extract(Context.root(), headers, MAP_GETTER);
            return io.opentelemetry.api.trace.Span.fromContext(extracted).getSpanContext().isValid() ? extracted : null;
        }

        @Override
        public Carried capture() {
            Context context = Context.current();
            return () -> context.makeCurrent()::close;
        }
    }

    private record OtelSpan(io.opentelemetry.api.trace.Span span, io.opentelemetry.context.Scope scope,
                            TextMapPropagator propagator) implements Span {

        @Override
        public Span attribute(String key, String value) {
            if (value != null) {
                span.setAttribute(key, value);
            }
            return this;
        }

        @Override
        public Span attribute(String key, long value) {
            span.setAttribute(key, value);
            return this;
        }

        @Override
        public void fail(String description) {
            span.setStatus(StatusCode.ERROR, description);
        }

        @Override
        public Map<String, String> headers() {
            Map<String, String> headers = new LinkedHashMap<>();
            propagator.inject(Context.current().with(span), headers, Map::put);
            return headers;
        }

        @Override
        public void close() {
            try {
                scope.close();
            } finally {
                span.end();
            }
        }
    }
}
