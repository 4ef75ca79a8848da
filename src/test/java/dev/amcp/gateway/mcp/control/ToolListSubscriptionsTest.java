package dev.amcp.gateway.mcp.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Settings;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a listen stream agrees to, and the per-node cap on open streams. */
class ToolListSubscriptionsTest {

    @Test
    void onlyToolListChangesAreHonoured() {
        assertEquals("{\"toolsListChanged\":true}", ToolListSubscriptions.honoured(JsonSupport.parseObject(
                "{\"toolsListChanged\":true,\"promptsListChanged\":true,\"resourceSubscriptions\":[\"x\"]}")).toString());
        assertEquals("{}", ToolListSubscriptions.honoured(JsonSupport.parseObject("{\"promptsListChanged\":true}")).toString());
        assertEquals("{}", ToolListSubscriptions.honoured(JsonSupport.parseObject("{\"toolsListChanged\":false}")).toString());
    }

    @Test
    void aNodeHoldsAtMostTheConfiguredNumberOfStreams() {
        ToolListSubscriptions subscriptions = new ToolListSubscriptions();
        subscriptions.settings = new Settings() {
            @Override
            public Optional<String> get(String name) {
                return ToolListSubscriptions.MAX_STREAMS_SETTING.equals(name) ? Optional.of("2") : Optional.empty();
            }
        };
        assertTrue(subscriptions.tryOpen());
        assertTrue(subscriptions.tryOpen());
        assertFalse(subscriptions.tryOpen(), "the third is refused");
        subscriptions.release();
        assertTrue(subscriptions.tryOpen(), "a closed stream frees its slot");
    }
}
