package dev.amcp.gateway.upstreams.control;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.entity.InvalidInputException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one upstream rule for workspace upstreams: the operator's ceiling, special addresses, the base a call stays under. */
class WorkspaceUpstreamRulesTest {

    static final UpstreamRules RULES = new UpstreamRules(Map.of("AMCP_UPSTREAM_DEMO", "http://127.0.0.1:9080/demo-api",
            "AMCP_UPSTREAM_ALLOWED_HOSTS", "partner.example.org, 0.0.0.0/0", "CODE_RUNNER_URL", "ws://10.1.2.3:8777"),
            WorkspaceUpstreamRulesTest::lookUp);
    static final List<String> CEILING = List.of("*.corp.example", "api.vendor.example:8443", "10.20.0.0/16", "127.0.0.1:7000");

    static InetAddress[] lookUp(String host) throws UnknownHostException {
        String address = Map.of("crm.corp.example", "10.20.1.5", "sneaky.corp.example", "169.254.169.254",
                "api.vendor.example", "198.51.100.9").get(host);
        if (address == null) {
            throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(address)};
    }

    static String refused(String base) {
        return assertThrows(InvalidInputException.class, () -> RULES.checkWorkspaceBase(URI.create(base), CEILING), base).getMessage();
    }

    @Test
    void aBaseMustLieInsideTheCeilingAndTheMessageNamesWhereToAddIt() {
        for (String ok : new String[] {"https://crm.corp.example/api", "https://api.vendor.example:8443/v2", "https://partner.example.org",
                "http://10.20.3.4/x", "http://127.0.0.1:7000/local", "http://203.0.113.5/"}) {
            assertDoesNotThrow(() -> RULES.checkWorkspaceBase(URI.create(ok), CEILING), ok);
        }
        assertEquals("https://corp.example:443 is outside the operator's egress ceiling: no egress rule (/api/egress-rules) and no entry of "
                + "AMCP_UPSTREAM_ALLOWED_HOSTS allows corp.example:443", refused("https://corp.example/"), "*.corp.example is below it only");
        assertTrue(refused("https://api.vendor.example/v2").contains("allows api.vendor.example:443"), "another port");
        assertTrue(refused("https://evil.example").contains("outside the operator's egress ceiling"));
    }

    @Test
    void aWorkspaceBaseNeverUnlocksASpecialAddressByItself() {
        assertTrue(refused("http://127.0.0.1:9080/demo-api").contains("a loopback address"), "the operator's own base unlocks it; a workspace's does not");
        assertTrue(refused("http://169.254.169.254/latest").contains("link-local"));
        assertTrue(refused("http://10.1.2.3:8777/").contains("the code runner's address"));
        assertDoesNotThrow(() -> RULES.checkWorkspaceBase(URI.create("http://127.0.0.1:7000/"), CEILING), "an egress rule that names it");
    }

    @Test
    void aCallStaysUnderItsBaseAndIsJudgedByTheAddressItReaches() {
        URI base = URI.create("https://crm.corp.example/api");
        assertEquals("10.20.1.5", RULES.resolveForWorkspaceCall(URI.create("https://crm.corp.example/api/orders/7"), base, CEILING)
                .address().getHostAddress());
        for (String outside : new String[] {"https://crm.corp.example/apix", "https://crm.corp.example/other", "http://crm.corp.example/api/x",
                "https://crm.corp.example:8443/api/x"}) {
            String message = assertThrows(InvalidInputException.class, () -> RULES.resolveForWorkspaceCall(URI.create(outside), base, CEILING)).getMessage();
            assertTrue(message.contains("is not under the upstream's base"), message);
        }
        String rebound = assertThrows(InvalidInputException.class, () -> RULES.resolveForWorkspaceCall(
                URI.create("https://sneaky.corp.example/x"), URI.create("https://sneaky.corp.example"), CEILING)).getMessage();
        assertTrue(rebound.contains("169.254.169.254") && rebound.contains("link-local"), "a name inside the ceiling that resolves to metadata: " + rebound);
        String narrowed = assertThrows(InvalidInputException.class, () -> RULES.resolveForWorkspaceCall(
                URI.create("https://crm.corp.example/api/x"), base, List.of())).getMessage();
        assertTrue(narrowed.contains("outside the operator's egress ceiling"), "a rule removed after the save: " + narrowed);
    }

    @Test
    void egressRulesAreCheckedAsTheOperatorEntersThem() {
        assertEquals("*.corp.example", UpstreamRules.checkEgressRule(" *.Corp.Example "));
        assertEquals("10.0.0.0/8", UpstreamRules.checkEgressRule("10.0.0.0/8"));
        for (String bad : new String[] {"", "http://x", "a b", "*.", "10.0.0.0/40", "host:99999", "**.x"}) {
            String message = assertThrows(InvalidInputException.class, () -> UpstreamRules.checkEgressRule(bad), bad).getMessage();
            assertTrue(message.endsWith("is not a host, *.domain, host:port, IP address, [IPv6]:port or CIDR range"), message);
        }
    }
}
