package dev.amcp.gateway.mcp.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.mcp.entity.JsonRpcMessage;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.RequestMeta;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 header rules (SEP-2243) and request {@code _meta} rules (SEP-2575), without a server. */
class WireHeadersTest {

    static JsonRpcMessage message(String json) {
        return JsonRpcMessage.of(JsonSupport.parse(json));
    }

    static final JsonRpcMessage CALL = message("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}");

    @Test
    void methodAndNameHeadersMustRepeatTheBody() {
        WireHeaders.checkStandard(CALL, Map.of("Mcp-Method", " tools/call ", "Mcp-Name", "t\t")::get);
        McpError missing = assertThrows(McpError.class, () -> WireHeaders.checkStandard(CALL, Map.of("Mcp-Method", "tools/call")::get));
        assertEquals(McpError.HEADER_MISMATCH, missing.code());
        assertEquals(400, missing.httpStatus());
        assertEquals(3, ((jakarta.json.JsonNumber) missing.id()).intValue());
        assertThrows(McpError.class, () -> WireHeaders.checkStandard(CALL, Map.of("Mcp-Method", "TOOLS/CALL", "Mcp-Name", "t")::get));
        assertThrows(McpError.class, () -> WireHeaders.checkStandard(CALL, Map.of("Mcp-Method", "tools/call", "Mcp-Name", "u")::get));
        assertThrows(McpError.class, () -> WireHeaders.checkStandard(CALL, Map.<String, String>of()::get));
    }

    @Test
    void paramHeadersFollowTheSchemasXMcpHeader() {
        jakarta.json.JsonObject schema = JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"region\":"
                + "{\"type\":\"string\",\"x-mcp-header\":\"Region\"},\"n\":{\"type\":\"integer\",\"x-mcp-header\":\"N\"}}}");
        JsonRpcMessage call = message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
                + "\"arguments\":{\"region\":\"eu\",\"n\":5}}}");
        WireHeaders.checkToolParams(schema, call, Map.of("Mcp-Param-Region", "eu", "Mcp-Param-N", " 5 ")::get);
        assertThrows(McpError.class, () -> WireHeaders.checkToolParams(schema, call, Map.of("Mcp-Param-Region", "eu")::get));
        assertThrows(McpError.class, () -> WireHeaders.checkToolParams(schema, call, Map.of("Mcp-Param-Region", "EU", "Mcp-Param-N", "5")::get));
        JsonRpcMessage without = message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}");
        WireHeaders.checkToolParams(schema, without, Map.<String, String>of()::get);
        assertThrows(McpError.class, () -> WireHeaders.checkToolParams(schema, without, Map.of("Mcp-Param-N", "5")::get),
                "a header for an argument the body lacks");
    }

    @Test
    void base64IsStrictAndOnlyWhenWrapped() {
        assertEquals("Hello", WireHeaders.decoded("=?base64?SGVsbG8=?=", "h", JsonValue.NULL));
        assertEquals("SGVsbG8=", WireHeaders.decoded("SGVsbG8=", "h", JsonValue.NULL), "no wrapper: literal");
        assertEquals("=?base64?SGVsbG8=", WireHeaders.decoded("=?base64?SGVsbG8=", "h", JsonValue.NULL), "no suffix: literal");
        assertThrows(McpError.class, () -> WireHeaders.decoded("=?base64?SGVsbG8?=", "h", JsonValue.NULL), "padding missing");
        assertThrows(McpError.class, () -> WireHeaders.decoded("=?base64?SGVs!!!bG8=?=", "h", JsonValue.NULL), "not the alphabet");
    }

    @Test
    void requestMetaNeedsRevisionAndCapabilities() {
        RequestMeta meta = RequestMeta.of(message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{\"sampling\":{}}}}}"));
        assertEquals("2026-07-28", meta.protocolVersion());
        assertEquals(java.util.Set.of("sampling"), meta.capabilityNames());
        for (String params : new String[] {"{}", "{\"_meta\":{\"io.modelcontextprotocol/clientCapabilities\":{}}}",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}",
                "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":[]}}"}) {
            McpError e = assertThrows(McpError.class, () -> RequestMeta.of(message("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":" + params + "}")));
            assertEquals(McpError.INVALID_PARAMS, e.code());
            assertEquals(400, e.httpStatus());
        }
    }
}
