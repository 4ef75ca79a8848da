package dev.amcp.gateway.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallScopeTest {

    @Test
    void narrowingKeepsTheStricterOfEachField() {
        CallScope server = CallScope.server(7);
        CallScope bridge = new CallScope(null, Set.of("a", "b"), true, false);
        CallScope narrowed = server.narrow(bridge);
        assertEquals(7L, narrowed.serverId());
        assertEquals(Set.of("a", "b"), narrowed.allowedTools());
        assertTrue(narrowed.readOnlyOnly());
        assertFalse(narrowed.codeToolsAllowed());
    }

    @Test
    void allowListsIntersect() {
        CallScope a = new CallScope(null, Set.of("a", "b"), false, true);
        CallScope b = new CallScope(null, Set.of("b", "c"), false, true);
        assertEquals(Set.of("b"), a.narrow(b).allowedTools());
    }

    @Test
    void narrowingCanNeverWiden() {
        CallScope strict = new CallScope(3L, Set.of("x"), true, false);
        CallScope narrowed = strict.narrow(CallScope.UNRESTRICTED);
        assertEquals(strict, narrowed);
    }

    @Test
    void disjointServersAllowNothing() {
        CallScope narrowed = CallScope.server(1).narrow(CallScope.server(2));
        assertEquals(Set.of(), narrowed.allowedTools());
        assertFalse(narrowed.codeToolsAllowed());
    }
}
