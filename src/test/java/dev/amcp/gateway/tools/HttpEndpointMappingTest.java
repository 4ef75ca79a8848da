package dev.amcp.gateway.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpEndpointMappingTest {

    static HttpEndpointMapping parse(String json) {
        return HttpEndpointMapping.from(JsonSupport.parseObject(json));
    }

    @Test
    void readsAFullMapping() {
        var m = parse("{\"method\":\"post\",\"url\":\"${AMCP_UPSTREAM_SHOP}/orders/{orderId}/notes\",\"query\":{\"v\":\"version\"},"
                + "\"body\":[\"note\"],\"headers\":{\"X-A\":\"1\"},\"credential\":\"shop\",\"timeoutMs\":2500}");
        assertEquals("POST", m.method());
        assertEquals(List.of("orderId"), m.pathParameters());
        assertEquals("version", m.query().get("v"));
        assertEquals(List.of("note"), m.body());
        assertEquals(2500, m.timeoutMs());
        assertTrue(m.sendsBody());
    }

    @Test
    void refusesSettingsOutsideTheUpstreamPrefix() {
        var e = assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\",\"url\":\"${DB_PASSWORD}/x\"}"));
        assertTrue(e.getMessage().contains("AMCP_UPSTREAM_"), e.getMessage());
    }

    @Test
    void refusesBadMethodsSchemesAndTimeouts() {
        assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"HEAD\",\"url\":\"http://x\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\",\"url\":\"file:///etc/passwd\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\"}"));
        assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\",\"url\":\"http://x\",\"timeoutMs\":5}"));
        assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\",\"url\":\"http://x\",\"query\":{\"a\":1}}"));
    }

    @Test
    void noArgumentMayStandInTheSchemeOrHostPart() {
        for (String url : List.of("http://{host}/x", "https://api.{tenant}.example.com/x", "http://example.com:{port}/x",
                "http://{user}@example.com/x", "${AMCP_UPSTREAM_SHOP}{path}", "${AMCP_UPSTREAM_SHOP}.evil.com/x",
                "https://evil.com/${AMCP_UPSTREAM_SHOP}", "${AMCP_UPSTREAM_SHOP}/a/${AMCP_UPSTREAM_DEMO}")) {
            var e = assertThrows(IllegalArgumentException.class, () -> parse("{\"method\":\"GET\",\"url\":\"" + url + "\"}"), url);
            assertTrue(e.getMessage().contains("host part") || e.getMessage().contains("may only start the url"), url + ": " + e.getMessage());
        }
        for (String url : List.of("${AMCP_UPSTREAM_SHOP}", "${AMCP_UPSTREAM_SHOP}/o/{id}", "${AMCP_UPSTREAM_SHOP}?q={q}",
                "https://api.example.com/{id}", "https://api.example.com?x={id}")) {
            parse("{\"method\":\"GET\",\"url\":\"" + url + "\"}");
        }
    }

    @Test
    void headersMayNotSetHost() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> parse("{\"method\":\"GET\",\"url\":\"http://x\",\"headers\":{\"host\":\"internal.example\"}}"));
        assertTrue(e.getMessage().contains("Host"), e.getMessage());
    }
}
