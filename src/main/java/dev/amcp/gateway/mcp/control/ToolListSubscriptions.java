package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The streams that tell a client of tool list changes, both kinds served by one loop ({@link #serve}): 2026-07-28
 * {@code subscriptions/listen} streams, and the standalone SSE stream a session of 2025-03-26 to 2025-11-25 opens
 * with {@code GET /mcp/{server}}. The only notification offered on them is {@code notifications/tools/list_changed},
 * sent whenever what this caller would read from {@code tools/list} changes. That covers every admin change that
 * affects the caller: a tool added, edited or deleted, its role's scope, the server's code mode, and a revoked key or
 * a lost server (the stream then ends). A listen stream's first message is the acknowledgement (what was asked for and
 * is honoured), each notification carries the subscription id (the listen request's JSON-RPC id), and its last message
 * is the {@code SubscriptionsListenResult}; a session's stream has no first or last message and sends the 2025 shape.
 *
 * <p>The check is a digest of the caller's tool list, taken again at once when this node sees an access-relevant change
 * ({@link AccessChanges}) and every {@value #POLL_SETTING} ms (default {@value #DEFAULT_POLL_MS}) otherwise, so a change
 * made on another node of a cluster reaches streams here without any node keeping subscription state. A stream ends
 * after {@value #MAX_SETTING} seconds (default {@value #DEFAULT_MAX_SECONDS}) or when the server stops or drains
 * ({@link Drain}). Each open stream holds a thread (not a request thread: the request is asynchronous, so an
 * application stop does not wait for it), so a node serves at most {@value #MAX_STREAMS_SETTING} of
 * both kinds together (default {@value #DEFAULT_MAX_STREAMS}), and a draining node opens none.
 */
@ApplicationScoped
public class ToolListSubscriptions {

    public static final String POLL_SETTING = "AMCP_MCP_LISTEN_POLL_MS";
    public static final long DEFAULT_POLL_MS = 5000;
    public static final String MAX_SETTING = "AMCP_MCP_LISTEN_MAX_SECONDS";
    public static final long DEFAULT_MAX_SECONDS = 3600;
    /** Each open stream holds a thread, so one node holds at most this many at once. */
    public static final String MAX_STREAMS_SETTING = "AMCP_MCP_MAX_LISTEN_STREAMS";
    public static final int DEFAULT_MAX_STREAMS = 64;
    private static final long TICK_MS = 100;
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final Logger LOG = Logger.getLogger(ToolListSubscriptions.class.getName());

    @Inject
    McpProtocol protocol;

    @Inject
    Settings settings;

    @Inject
    Drain drain;

    @Resource
    ManagedExecutorService executor;

    private volatile boolean stopping;
    private final AtomicInteger open = new AtomicInteger();

    /** Whether a new stream may open here. */
    public enum Admission { OPEN, FULL, DRAINING }

    /**
     * Takes one of this node's stream slots ({@link Admission#OPEN}; give it back with {@link #release()}); none when
     * all are taken, or when the node drains: a stream opened there would end at once and its client come straight back.
     */
    public Admission tryOpen() {
        if (stopping || drain.draining()) {
            return Admission.DRAINING;
        }
        int max = Math.max(0, settings.getInt(MAX_STREAMS_SETTING, DEFAULT_MAX_STREAMS));
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return Admission.FULL;
        }
        return Admission.OPEN;
    }

    public void release() {
        open.decrementAndGet();
    }

    /** Streams open on this node now. */
    int openStreams() {
        return open.get();
    }

    /** The part of the client's filter this gateway honours: {@code toolsListChanged} only (no prompts or resources). */
    public static JsonObject honoured(JsonObject filter) {
        boolean tools = filter.get("toolsListChanged") == JsonValue.TRUE;
        return tools ? JsonSupport.JSON.createObjectBuilder().add("toolsListChanged", true).build() : JsonValue.EMPTY_JSON_OBJECT;
    }

    /**
     * What one kind of stream sends: an opening message or none, the notification of a change (none: the stream watches
     * nothing and only keeps the connection), and a closing message or none.
     */
    public record Frames(JsonObject opening, JsonObject changed, JsonObject closing) {}

    /** A {@code subscriptions/listen} stream: the acknowledgement, notifications with the subscription id, the result. */
    public static Frames listen(JsonValue subscriptionId, JsonObject filter) {
        JsonObject honoured = honoured(filter);
        return new Frames(McpWire.subscriptionAcknowledged(subscriptionId, honoured),
                honoured.containsKey("toolsListChanged") ? McpWire.toolListChanged(subscriptionId) : null,
                JsonRpcMessage.result(subscriptionId, McpWire.complete(JsonValue.EMPTY_JSON_OBJECT, McpProtocol.SERVER_INFO,
                        McpWire.subscriptionMeta(subscriptionId))));
    }

    /** A session's standalone SSE stream ({@code GET}): bare notifications, nothing before or after them. */
    public static final Frames SESSION = new Frames(null, McpWire.toolListChanged(), null);

    /**
     * Serves one stream of an asynchronous request on a thread of its own ({@link #serve}), then runs {@code ended}
     * (which completes the request); the slot {@link #tryOpen()} took is given back in every case.
     */
    public void serveAsync(OutputStream out, Frames frames, Supplier<Optional<Exchange>> current, Runnable ended) {
        try {
            executor.execute(() -> {
                try {
                    serve(out, frames, current);
                } finally {
                    ended.run();
                }
            });
        } catch (RuntimeException e) { // rejected: the application is stopping
            release();
            ended.run();
        }
    }

    /**
     * Serves one stream on the calling thread until the client goes away, its key or endpoint is gone, the stream's
     * lifetime ends or the server stops or drains; then gives back the slot {@link #tryOpen()} took.
     *
     * @param current the caller's exchange as of now (authenticated and scoped again), empty once it no longer may listen
     */
    public void serve(OutputStream out, Frames frames, Supplier<Optional<Exchange>> current) {
        boolean tools = frames.changed() != null;
        try {
            // The list as of the stream's start, taken before anything is sent: a change the client makes right after
            // reading the acknowledgement (on this node or another) must differ from it, or it would go unreported.
            long generation = AccessChanges.generation();
            String digest = tools ? current.get().map(protocol::toolListDigest).orElse(null) : null;
            if (frames.opening() != null) {
                send(out, frames.opening());
            } else {
                // a first comment instead: a client that read it knows a change made from now on is reported
                out.write(HEARTBEAT);
                out.flush();
            }
            long lastCheck = System.nanoTime();
            long lastWrite = lastCheck;
            long deadline = lastCheck + TimeUnit.SECONDS.toNanos(Math.max(1, settings.getLong(MAX_SETTING, DEFAULT_MAX_SECONDS)));
            long poll = TimeUnit.MILLISECONDS.toNanos(Math.max(TICK_MS, settings.getLong(POLL_SETTING, DEFAULT_POLL_MS)));
            long heartbeat = TimeUnit.MILLISECONDS.toNanos(Math.max(TICK_MS, settings.getLong(ClientWatches.HEARTBEAT_SETTING,
                    ClientWatches.DEFAULT_HEARTBEAT_MS)));
            while (!stopping && !drain.draining() && System.nanoTime() < deadline) {
                Thread.sleep(TICK_MS);
                long now = System.nanoTime();
                if (tools && (generation != AccessChanges.generation() || now - lastCheck >= poll)) {
                    generation = AccessChanges.generation();
                    lastCheck = now;
                    Optional<Exchange> exchange = current.get();
                    if (exchange.isEmpty()) {
                        break; // key revoked or endpoint no longer available: end the stream
                    }
                    String latest = protocol.toolListDigest(exchange.get());
                    if (!latest.equals(digest)) {
                        digest = latest;
                        send(out, frames.changed());
                        lastWrite = now;
                    }
                }
                if (now - lastWrite >= heartbeat) {
                    // a client that went away is noticed here, and its thread and slot freed
                    out.write(HEARTBEAT);
                    out.flush();
                    lastWrite = now;
                }
            }
            if (frames.closing() != null) {
                send(out, frames.closing());
            }
        } catch (IOException | RuntimeException e) {
            LOG.fine(() -> "MCP tool list stream ended: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release();
        }
    }

    private static void send(OutputStream out, JsonObject message) throws IOException {
        out.write(("event: message\ndata: " + message + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @PreDestroy
    void stop() {
        stopping = true;
    }
}
