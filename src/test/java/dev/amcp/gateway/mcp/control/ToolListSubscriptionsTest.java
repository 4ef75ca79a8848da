package dev.amcp.gateway.mcp.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.control.ToolListSubscriptions.Admission;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.json.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a listen stream agrees to, the per-node cap on open streams, and the one loop both stream kinds run. */
class ToolListSubscriptionsTest {

    static final Exchange EXCHANGE = new Exchange(Caller.operator(null, null, "t"), false, "/mcp/main", "main",
            ProtocolVersion.V2025_11_25, "-");

    static Settings settings(Map<String, String> values) {
        return new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(values.get(name));
            }
        };
    }

    /** Streams of a node whose tool list digest is {@code digest}; {@code started} counts down at the first look. */
    static ToolListSubscriptions subscriptions(AtomicReference<String> digest, CountDownLatch started) {
        ToolListSubscriptions subscriptions = new ToolListSubscriptions();
        subscriptions.drain = new Drain();
        // no poll or heartbeat in the test's time: only a change event makes the stream look again
        subscriptions.settings = settings(Map.of(ToolListSubscriptions.POLL_SETTING, "600000", ClientWatches.HEARTBEAT_SETTING, "600000"));
        subscriptions.protocol = new McpProtocol() {
            @Override
            public String toolListDigest(Exchange exchange) {
                String now = digest.get();
                started.countDown();
                return now;
            }
        };
        return subscriptions;
    }

    @Test
    void onlyToolListChangesAreHonoured() {
        assertEquals("{\"toolsListChanged\":true}", ToolListSubscriptions.honoured(JsonSupport.parseObject(
                "{\"toolsListChanged\":true,\"promptsListChanged\":true,\"resourceSubscriptions\":[\"x\"]}")).toString());
        assertEquals("{}", ToolListSubscriptions.honoured(JsonSupport.parseObject("{\"promptsListChanged\":true}")).toString());
        assertEquals("{}", ToolListSubscriptions.honoured(JsonSupport.parseObject("{\"toolsListChanged\":false}")).toString());
    }

    @Test
    void aNodeHoldsAtMostTheConfiguredNumberOfStreamsAndNoneWhileDraining() {
        ToolListSubscriptions subscriptions = new ToolListSubscriptions();
        subscriptions.drain = new Drain();
        subscriptions.settings = settings(Map.of(ToolListSubscriptions.MAX_STREAMS_SETTING, "2"));
        assertEquals(Admission.OPEN, subscriptions.tryOpen());
        assertEquals(Admission.OPEN, subscriptions.tryOpen());
        assertEquals(Admission.FULL, subscriptions.tryOpen(), "the third is refused");
        subscriptions.release();
        assertEquals(Admission.OPEN, subscriptions.tryOpen(), "a closed stream frees its slot");
        subscriptions.release();
        subscriptions.drain.begin();
        assertEquals(Admission.DRAINING, subscriptions.tryOpen(), "a draining node opens no stream: it would end at once");
    }

    @Test
    void aSessionStreamSendsBareNotificationsAndNothingBeforeOrAfter() throws Exception {
        List<String> data = run(ToolListSubscriptions.SESSION, Optional::of);
        assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"), data);
    }

    @Test
    void aListenStreamAcknowledgesNotifiesWithItsIdAndEndsWithItsResult() throws Exception {
        List<String> data = run(ToolListSubscriptions.listen(Json.createValue(7),
                JsonSupport.parseObject("{\"toolsListChanged\":true}")), Optional::of);
        assertEquals(3, data.size(), data.toString());
        assertEquals("notifications/subscriptions/acknowledged", JsonSupport.parseObject(data.get(0)).getString("method"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{\"_meta\":"
                + "{\"io.modelcontextprotocol/subscriptionId\":7}}}", data.get(1));
        assertEquals(7, JsonSupport.parseObject(data.get(2)).getInt("id"), "the listen result ends it: " + data.get(2));
    }

    @Test
    void aSessionStreamEndsWithoutAWordWhenItsKeyIsGone() throws Exception {
        AtomicBoolean revoked = new AtomicBoolean();
        AtomicReference<String> digest = new AtomicReference<>("a");
        CountDownLatch started = new CountDownLatch(1);
        ToolListSubscriptions subscriptions = subscriptions(digest, started);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(Admission.OPEN, subscriptions.tryOpen());
        Thread stream = start(() -> subscriptions.serve(out, ToolListSubscriptions.SESSION,
                () -> revoked.get() ? Optional.empty() : Optional.of(EXCHANGE)));
        assertTrue(started.await(5, TimeUnit.SECONDS));
        revoked.set(true);
        AccessChanges.changedElsewhere();
        stream.join(5000);
        assertFalse(stream.isAlive(), "the stream ends once its key is gone");
        assertEquals(":\n\n", out.toString(StandardCharsets.UTF_8), "its first comment, then nothing");
        assertEquals(0, subscriptions.openStreams(), "its slot is free again");
    }

    static Thread start(Runnable serve) {
        Thread thread = new Thread(serve, "tool-list-stream");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * Serves a stream until the tool list changed once and the node drained; answers the {@code data} of what it sent.
     */
    static List<String> run(ToolListSubscriptions.Frames frames, java.util.function.Function<Exchange, Optional<Exchange>> current)
            throws Exception {
        AtomicReference<String> digest = new AtomicReference<>("a");
        CountDownLatch started = new CountDownLatch(1);
        ToolListSubscriptions subscriptions = subscriptions(digest, started);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(Admission.OPEN, subscriptions.tryOpen());
        Thread stream = start(() -> subscriptions.serve(out, frames, () -> current.apply(EXCHANGE)));
        assertTrue(started.await(5, TimeUnit.SECONDS), "the stream took the list's digest");
        digest.set("b");
        AccessChanges.changedElsewhere();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!out.toString(StandardCharsets.UTF_8).contains("list_changed") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        subscriptions.drain.begin();
        stream.join(5000);
        assertFalse(stream.isAlive(), "the stream ends when the node drains");
        assertEquals(0, subscriptions.openStreams(), "its slot is free again");
        String sent = out.toString(StandardCharsets.UTF_8);
        assertTrue(sent.endsWith("\n\n") || sent.isEmpty(), "whole events only: " + sent);
        return Arrays.stream(sent.split("\n")).filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
    }
}
