package dev.amcp.gateway.mcp.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpWire;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PreDestroy;
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
 * 2026-07-28 {@code subscriptions/listen} streams. The only notification this gateway offers on them is
 * {@code toolsListChanged}: the stream's first message is the acknowledgement (what was asked for and is honoured),
 * then a {@code notifications/tools/list_changed} follows whenever what this caller would read from {@code tools/list}
 * changes. That covers every admin change that affects the caller: a tool added, edited or deleted, its role's scope,
 * the server's code mode, and a revoked key or a lost server (the stream then ends).
 *
 * <p>The check is a digest of the caller's tool list, taken again at once when this node sees an access-relevant change
 * ({@link AccessChanges}) and every {@value #POLL_SETTING} ms (default {@value #DEFAULT_POLL_MS}) otherwise, so a change
 * made on another node of a cluster reaches listeners here without any node keeping subscription state. Every
 * notification carries the subscription id, which is the listen request's JSON-RPC id. A stream ends after
 * {@value #MAX_SETTING} seconds (default {@value #DEFAULT_MAX_SECONDS}) or when the server stops or drains
 * ({@link Drain}), with the {@code SubscriptionsListenResult}; the client then listens again. Each open stream holds a request thread, so a
 * node serves at most {@value #MAX_STREAMS_SETTING} of them at once (default {@value #DEFAULT_MAX_STREAMS}).
 */
@ApplicationScoped
public class ToolListSubscriptions {

    public static final String POLL_SETTING = "AMCP_MCP_LISTEN_POLL_MS";
    public static final long DEFAULT_POLL_MS = 5000;
    public static final String MAX_SETTING = "AMCP_MCP_LISTEN_MAX_SECONDS";
    public static final long DEFAULT_MAX_SECONDS = 3600;
    /** Each open stream holds a request thread, so one node holds at most this many at once (more get 503). */
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

    private volatile boolean stopping;
    private final AtomicInteger open = new AtomicInteger();

    /** Takes one of this node's stream slots; false when all are taken. Give it back with {@link #release()}. */
    public boolean tryOpen() {
        int max = Math.max(0, settings.getInt(MAX_STREAMS_SETTING, DEFAULT_MAX_STREAMS));
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return false;
        }
        return true;
    }

    public void release() {
        open.decrementAndGet();
    }

    /** The part of the client's filter this gateway honours: {@code toolsListChanged} only (no prompts or resources). */
    public static JsonObject honoured(JsonObject filter) {
        boolean tools = filter.get("toolsListChanged") == JsonValue.TRUE;
        return tools ? JsonSupport.JSON.createObjectBuilder().add("toolsListChanged", true).build() : JsonValue.EMPTY_JSON_OBJECT;
    }

    /**
     * Serves one listen stream on the calling thread until the client goes away, its key or endpoint is gone, the
     * stream's lifetime ends or the server stops; then gives back the slot {@link #tryOpen()} took.
     *
     * @param current the caller's exchange as of now (authenticated and scoped again), empty once it no longer may listen
     */
    public void serve(OutputStream out, JsonValue subscriptionId, JsonObject filter, Supplier<Optional<Exchange>> current) {
        JsonObject honoured = honoured(filter);
        boolean tools = honoured.containsKey("toolsListChanged");
        try {
            // The list as of the acknowledgement, taken before it is sent: a change the client makes right after
            // reading the acknowledgement (on this node or another) must differ from it, or it would go unreported.
            long generation = AccessChanges.generation();
            String digest = tools ? current.get().map(protocol::toolListDigest).orElse(null) : null;
            send(out, McpWire.subscriptionAcknowledged(subscriptionId, honoured));
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
                        send(out, McpWire.toolListChanged(subscriptionId));
                        lastWrite = now;
                    }
                }
                if (now - lastWrite >= heartbeat) {
                    out.write(HEARTBEAT);
                    out.flush();
                    lastWrite = now;
                }
            }
            send(out, JsonRpcMessage.result(subscriptionId,
                    McpWire.complete(JsonValue.EMPTY_JSON_OBJECT, McpProtocol.SERVER_INFO, McpWire.subscriptionMeta(subscriptionId))));
        } catch (IOException | RuntimeException e) {
            LOG.fine(() -> "MCP listen stream " + subscriptionId + " ended: " + e);
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
