package dev.amcp.gateway.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.RoleGrant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A key's role never reaches beyond its user's role: capabilities and servers are both cut to the user's. */
class RoleGrantTest {

    static RoleGrant grant(Set<String> capabilities, boolean allServers, Set<Long> servers) {
        return new RoleGrant(1, "key-role", capabilities, allServers, servers);
    }

    @Test
    void capabilitiesAreThoseBothHold() {
        RoleGrant key = grant(Set.of("tools.write", "inlineCode"), true, Set.of());
        RoleGrant user = grant(Set.of("inlineCode"), true, Set.of());
        RoleGrant within = key.within(user);
        assertEquals(Set.of("inlineCode"), within.capabilities());
        assertEquals("key-role", within.name(), "still the key's role by name");
        assertTrue(within.mayUseServer(42));
    }

    @Test
    void serversAreThoseBothMayUse() {
        RoleGrant allKey = grant(Set.of(), true, Set.of());
        RoleGrant twoServers = grant(Set.of(), false, Set.of(1L, 2L));
        RoleGrant oneServer = grant(Set.of(), false, Set.of(2L, 3L));
        assertFalse(allKey.within(twoServers).mayUseServer(3), "a key for all servers gets only the user's");
        assertTrue(allKey.within(twoServers).mayUseServer(1));
        assertTrue(twoServers.within(allKey).mayUseServer(1));
        assertFalse(twoServers.within(allKey).mayUseServer(3));
        RoleGrant both = twoServers.within(oneServer);
        assertTrue(both.mayUseServer(2));
        assertFalse(both.mayUseServer(1) || both.mayUseServer(3));
    }
}
