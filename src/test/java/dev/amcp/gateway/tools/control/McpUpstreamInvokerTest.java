package dev.amcp.gateway.tools.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.tools.entity.ToolResult;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class McpUpstreamInvokerTest {

    /** A transport that keeps what the SDK client sends. */
    static final class Sent implements McpClientTransport {
        final List<McpSchema.JSONRPCMessage> messages = new ArrayList<>();

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            messages.add(message);
            return Mono.empty();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return null;
        }
    }

    @Test
    void theTransportLearnsTheRequestIdOfEachCallByItsProgressTokenAndTheCancellationNamesIt() {
        Sent sent = new Sent();
        McpUpstreamInvoker.RecordingTransport transport = new McpUpstreamInvoker.RecordingTransport(sent, new EventStreamOpening());
        McpSchema.CallToolRequest call = McpSchema.CallToolRequest.builder().name("slow").arguments(Map.of()).progressToken("tok-1").build();
        transport.sendMessage(new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, "tools/call", "abc-7", call)).block();
        transport.sendMessage(new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, "tools/list", "abc-8", null)).block();
        assertEquals("abc-7", transport.requestIdOf("tok-1"));
        assertEquals(2, sent.messages.size(), "every message still goes out");

        transport.sendMessage(McpUpstreamInvoker.cancellation(transport.requestIdOf("tok-1"), "user pressed stop")).block();
        McpSchema.JSONRPCNotification cancel = (McpSchema.JSONRPCNotification) sent.messages.get(2);
        assertEquals("notifications/cancelled", cancel.method());
        assertEquals(Map.of("requestId", "abc-7", "reason", "user pressed stop"), cancel.params());

        transport.forget("tok-1");
        assertNull(transport.requestIdOf("tok-1"));
    }

    @Test
    void upstreamResultsBecomeToolResults() {
        ToolResult text = McpUpstreamInvoker.toResult(new McpSchema.CallToolResult(List.of(new McpSchema.TextContent("The sum is 42")), false, null, null));
        assertFalse(text.isError());
        assertEquals("The sum is 42", text.text());
        assertNull(text.structuredContent());

        ToolResult structured = McpUpstreamInvoker.toResult(new McpSchema.CallToolResult(List.of(new McpSchema.TextContent("{\"t\":36}")), false,
                Map.of("t", 36), null));
        assertEquals(36, structured.structuredContent().getInt("t"));

        ToolResult error = McpUpstreamInvoker.toResult(new McpSchema.CallToolResult(List.of(new McpSchema.TextContent("Invalid resourceId: 0")), true, null, null));
        assertTrue(error.isError());
        assertEquals("Invalid resourceId: 0", error.text(), "the upstream's message, as it sent it");
    }

    @Test
    void theUpstreamCallCarriesTheTraceContextInItsMetaBesideTheProgressToken() {
        McpSchema.CallToolRequest traced = McpUpstreamInvoker.request("add", Map.of("a", 1), "tok-2",
                Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate", "k=v"));
        assertEquals("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", traced.meta().get("traceparent"));
        assertEquals("k=v", traced.meta().get("tracestate"));
        assertEquals("tok-2", traced.progressToken());
        assertEquals(Map.of("a", 1), traced.arguments());

        McpSchema.CallToolRequest untraced = McpUpstreamInvoker.request("add", Map.of(), "tok-3", Map.of());
        assertEquals(Map.of("progressToken", "tok-3"), untraced.meta(), "with tracing off only the progress token");
    }
}
