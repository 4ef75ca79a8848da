package dev.amcp.gateway.upstreams.control;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The upstream rule without a server: bases, allow-list entries, special addresses in every spelling, credentials. */
class UpstreamRulesTest {

    static final Map<String, String> SETTINGS = Map.of(
            "AMCP_UPSTREAM_SHOP", "https://shop.example.com/api/",
            "AMCP_UPSTREAM_DEMO", "http://127.0.0.1:9080/demo-api",
            "AMCP_UPSTREAM_TIMEOUT_MS", "10000",
            "AMCP_UPSTREAM_ALLOWED_HOSTS", "partner.example.org, billing.example.org:8443, 10.0.0.0/8, [2001:db8::1]:8080, 0.0.0.0/0, "
                    + "rebind.example.net, localhost:9080",
            "AMCP_CREDENTIAL_ERP_UPSTREAM", "shop",
            "CODE_RUNNER_URL", "ws://10.1.2.3:8777");

    /** Names as a test DNS answers them; anything else is unknown. */
    static final Map<String, String> DNS = Map.of(
            "shop.example.com", "203.0.113.10",
            "partner.example.org", "198.51.100.7",
            "billing.example.org", "198.51.100.8",
            "localhost", "127.0.0.1");

    static UpstreamRules rules(Map<String, String> settings, UpstreamRules.Resolver resolver) {
        return new UpstreamRules(settings, resolver);
    }

    static UpstreamRules rules() {
        return rules(SETTINGS, UpstreamRulesTest::lookUp);
    }

    static InetAddress[] lookUp(String host) throws UnknownHostException {
        String address = DNS.get(host);
        if (address == null) {
            throw new UnknownHostException(host);
        }
        return new InetAddress[] {InetAddress.getByName(address)};
    }

    static String refusalAtSave(String url) {
        return assertThrows(InvalidInputException.class, () -> rules().checkAtSave(URI.create(url)), url).getMessage();
    }

    static String refusalAtCall(UpstreamRules rules, String url) {
        return assertThrows(InvalidInputException.class, () -> rules.resolveForCall(URI.create(url)), url).getMessage();
    }

    @Test
    void basesAndAllowListedHostsPassAtSave() {
        UpstreamRules rules = rules();
        for (String url : List.of("https://shop.example.com/api/orders/1", "https://shop.example.com/api", "https://shop.example.com:443/api/x",
                "http://127.0.0.1:9080/demo-api/customers", "https://partner.example.org/anything", "http://PARTNER.example.org:8080/x",
                "https://billing.example.org:8443/x", "http://10.20.30.40/x", "http://[2001:db8::1]:8080/x", "http://192.0.2.1/x")) {
            assertDoesNotThrow(() -> rules.checkAtSave(URI.create(url)), url);
        }
    }

    @Test
    void everythingElseIsRefusedNamingTheSetting() {
        for (String url : List.of("https://shop.example.com/other", "https://shop.example.com/apix", "http://shop.example.com/api/x",
                "https://evil.example.com/", "https://billing.example.org/x", "http://[2001:db8::1]:8081/x", "http://[2001:db8::2]:8080/x",
                "http://2130706433/", "http://017700000001/")) {
            String message = refusalAtSave(url);
            assertTrue(message.contains("AMCP_UPSTREAM_ALLOWED_HOSTS") && message.contains("not an allowed upstream"), message);
        }
    }

    @Test
    void specialAddressesAreRefusedEvenWhenARangeCoversThem() {
        // 0.0.0.0/0 is on the allow-list: it covers them, but does not name them.
        for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:8777/healthz", "http://127.0.0.2/",
                "http://0.0.0.0:9080/", "http://127.0.0.1:9080/metrics", "http://100.100.100.200/latest/meta-data/", "http://224.0.0.1/", "http://[::ffff:127.0.0.1]/",
                "http://[::ffff:169.254.169.254]/", "http://[::127.0.0.1]/", "http://[64:ff9b::7f00:1]/", "http://10.1.2.3:9999/")) {
            String message = refusalAtSave(url);
            assertTrue(message.contains("AMCP_UPSTREAM_ALLOWED_HOSTS") && message.contains("explicitly"), url + ": " + message);
        }
        assertTrue(refusalAtSave("http://169.254.169.254/").contains("link-local"));
        assertTrue(refusalAtSave("http://10.1.2.3:8777/").contains("code runner"), "10.0.0.0/8 covers the runner's host but does not name it");
    }

    @Test
    void ipv6SpecialAddressesNeedAnIpv6Entry() {
        UpstreamRules rules = rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", "::/0"), UpstreamRulesTest::lookUp);
        for (String url : List.of("http://[::1]/", "http://[::]/", "http://[fe80::1]/", "http://[fd00:ec2::254]/", "http://[ff02::1]/")) {
            var e = assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create(url)), url);
            assertTrue(e.getMessage().contains("explicitly"), e.getMessage());
        }
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://[2001:db8::5]/")));
    }

    @Test
    void anExplicitEntryInsideTheBlockUnlocksASpecialAddressOnItsPortOnly() {
        UpstreamRules rules = rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", "127.0.0.1:9080, 169.254.10.0/24, [::1]:9080",
                "CODE_RUNNER_URL", "ws://127.0.0.1:8777"), UpstreamRulesTest::lookUp);
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/x")));
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://[::1]:9080/x")));
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://[::ffff:127.0.0.1]:9080/x")), "the mapped spelling is the same address");
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://169.254.10.20/x")));
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://127.0.0.1:8777/healthz")));
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://169.254.169.254/x")));
        UpstreamRules wide = rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", "127.0.0.0/8", "CODE_RUNNER_URL", "ws://127.0.0.1:8777"),
                UpstreamRulesTest::lookUp);
        assertDoesNotThrow(() -> wide.checkAtSave(URI.create("http://127.0.0.2:9080/x")));
        var runner = assertThrows(InvalidInputException.class, () -> wide.checkAtSave(URI.create("http://127.0.0.1:8777/healthz")));
        assertTrue(runner.getMessage().contains("code runner"), "only the runner's exact address unlocks it: " + runner.getMessage());
    }

    @Test
    void theOperatorsOwnBaseNamesItsAddressForUrlsUnderIt() {
        UpstreamRules rules = rules(Map.of("AMCP_UPSTREAM_DEMO", "http://127.0.0.1:9080/demo-api", "CODE_RUNNER_URL", "ws://127.0.0.1:8777"),
                UpstreamRulesTest::lookUp);
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/demo-api/orders")));
        assertEquals(addressOf("127.0.0.1"), rules.resolveForCall(URI.create("http://127.0.0.1:9080/demo-api/orders")).address());
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/api/tools")));
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/demo-api/../api/tools")));
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/demo-api/%2e%2e/api/tools")));
        assertThrows(InvalidInputException.class, () -> rules.checkAtSave(URI.create("http://127.0.0.1:9080/demo-api/x%2F..%2F..%2Fapi")));
    }

    @Test
    void atCallTimeEveryResolvedAddressIsChecked() {
        UpstreamRules rules = rules();
        String loopbackName = refusalAtCall(rules, "http://localhost:9080/x");
        assertTrue(loopbackName.contains("127.0.0.1") && loopbackName.contains("loopback"), loopbackName);
        UpstreamRules twoAnswers = rules(SETTINGS, host -> new InetAddress[] {addressOf("198.51.100.7"), addressOf("169.254.169.254")});
        assertTrue(refusalAtCall(twoAnswers, "https://partner.example.org/x").contains("169.254.169.254"), "the second address counts too");
        UpstreamRules mapped = rules(SETTINGS, host -> new InetAddress[] {InetAddress.getByAddress(host,
                new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1})});
        assertTrue(refusalAtCall(mapped, "https://partner.example.org/x").contains("loopback"), "IPv4-compatible IPv6 is judged as IPv4");
        assertTrue(refusalAtCall(rules, "https://unknown.example.org/x").contains("not an allowed upstream"));
        assertTrue(refusalAtCall(rules, "https://rebind.example.net/x").contains("cannot be resolved"));
    }

    @Test
    void otherSpellingsOfLoopbackAreJudgedByTheAddressTheyReach() {
        // The machine's own resolver: Java reads 2130706433 as 127.0.0.1. Listing the name does not unlock the address.
        UpstreamRules rules = rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", "2130706433, 0.0.0.0/0, ::/0"), InetAddress::getAllByName);
        assertDoesNotThrow(() -> rules.checkAtSave(URI.create("http://2130706433/")), "a listed name passes the save-time check");
        String decimal = refusalAtCall(rules, "http://2130706433/");
        assertTrue(decimal.contains("127.0.0.1") && decimal.contains("loopback"), decimal);
        for (String url : List.of("http://[::ffff:127.0.0.1]/", "http://[0:0:0:0:0:ffff:7f00:1]/", "http://[::ffff:a9fe:a9fe]/")) {
            assertTrue(refusalAtCall(rules, url).contains("explicitly"), url);
        }
        // Spellings Java's URI does not read as a host (hex, short forms, a trailing dot) cannot be called at all.
        for (String url : List.of("http://0x7f.1/", "http://127.1/", "http://127.0.0.1./")) {
            assertTrue(refusalAtSave(url).contains("with a host"), url);
        }
    }

    /** A name whose DNS answer changes (rebinding) is judged on each call, and the call goes to the address judged. */
    @Test
    void aRebindingNameIsCheckedOnEachCallAndTheCallIsPinnedToTheCheckedAddress() {
        AtomicInteger lookups = new AtomicInteger();
        UpstreamRules rules = rules(SETTINGS, host -> new InetAddress[] {
                addressOf(lookups.getAndIncrement() == 0 ? "198.51.100.9" : "169.254.169.254")});
        CheckedUpstream first = rules.resolveForCall(URI.create("https://rebind.example.net/v1/items?q=a%20b"));
        assertEquals(URI.create("https://198.51.100.9/v1/items?q=a%20b"), first.pinnedUri());
        assertEquals("rebind.example.net", first.hostHeader());
        assertEquals("rebind.example.net", first.serverName());
        assertTrue(first.named());
        assertTrue(refusalAtCall(rules, "https://rebind.example.net/v1/items").contains("169.254.169.254"));
        assertEquals(2, lookups.get(), "one lookup per call");
    }

    @Test
    void aCredentialGoesOnlyToItsOwnUpstream() {
        UpstreamRules rules = rules();
        assertDoesNotThrow(() -> rules.checkCredential("shop", URI.create("https://shop.example.com/api/orders")));
        assertDoesNotThrow(() -> rules.checkCredential(null, URI.create("https://partner.example.org/x")));
        String elsewhere = assertThrows(InvalidInputException.class,
                () -> rules.checkCredential("shop", URI.create("https://partner.example.org/api/orders"))).getMessage();
        assertEquals("credential SHOP may only be sent to URLs under ${AMCP_UPSTREAM_SHOP} (name another upstream with AMCP_CREDENTIAL_SHOP_UPSTREAM)",
                elsewhere);
        assertThrows(InvalidInputException.class, () -> rules.checkCredential("shop", URI.create("https://shop.example.com/other")));
        assertDoesNotThrow(() -> rules.checkCredential("erp", URI.create("https://shop.example.com/api/x")), "bound by AMCP_CREDENTIAL_ERP_UPSTREAM");
        String unbound = assertThrows(InvalidInputException.class,
                () -> rules.checkCredential("partner", URI.create("https://partner.example.org/x"))).getMessage();
        assertTrue(unbound.contains("${AMCP_UPSTREAM_PARTNER}, which is not configured"), unbound);
    }

    @Test
    void basesExpandAndOnlyConfiguredBasesCount() {
        UpstreamRules rules = rules();
        assertEquals("https://shop.example.com/api/orders", rules.expandBases("${AMCP_UPSTREAM_SHOP}/orders"));
        for (String notABase : List.of("${AMCP_UPSTREAM_TIMEOUT_MS}/x", "${AMCP_UPSTREAM_ALLOWED_HOSTS}/x", "${AMCP_UPSTREAM_NONE}/x")) {
            var e = assertThrows(InvalidInputException.class, () -> rules.expandBases(notABase));
            assertTrue(e.getMessage().contains("not configured as an upstream base URL"), e.getMessage());
        }
    }

    @Test
    void badSettingsAreRefusedWithTheirName() {
        for (String entry : List.of("exa mple.com", "host:99999", "10.0.0.0/33", "name/8", "http://x")) {
            var e = assertThrows(IllegalStateException.class, () -> rules(Map.of("AMCP_UPSTREAM_ALLOWED_HOSTS", entry), UpstreamRulesTest::lookUp));
            assertTrue(e.getMessage().contains("AMCP_UPSTREAM_ALLOWED_HOSTS"), e.getMessage());
        }
        var base = assertThrows(IllegalStateException.class, () -> rules(Map.of("AMCP_UPSTREAM_X", "ftp://x"), UpstreamRulesTest::lookUp));
        assertTrue(base.getMessage().contains("AMCP_UPSTREAM_X"), base.getMessage());
    }

    @Test
    void schemesUserInfoAndDotSegmentsAreRefused() {
        assertTrue(refusalAtSave("ftp://partner.example.org/x").contains("http://"));
        assertTrue(refusalAtSave("https://shop.example.com@evil.example.com/api/x").contains("user name"));
        assertTrue(refusalAtSave("https://partner.example.org/a/./b").contains(". or .."));
    }

    @Test
    void walkingThePathIsSeenInEveryEncoding() {
        for (String walk : List.of(".", "..", "%2e%2e", "%2E.", "%252e%252e", "a/../b", "..%2Fx", "..\\x", "x%5c..")) {
            assertTrue(UpstreamRules.walksPath(walk), walk);
        }
        for (String fine : List.of("a.b", "...", "..a", "%2e%2e%2e", "100%", "v1.2")) {
            assertFalse(UpstreamRules.walksPath(fine), fine);
        }
    }

    static InetAddress addressOf(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anImportWritesItsBaseAgainstTheOperatorsBaseAndFindsTheCredentialBoundToIt() {
        UpstreamRules rules = rules(Map.of("AMCP_UPSTREAM_SHOP", "https://shop.example.com/api", "AMCP_UPSTREAM_SHOP_V2", "https://shop.example.com/api/v2",
                "AMCP_UPSTREAM_PETS", "http://127.0.0.1:9080/pets", "AMCP_CREDENTIAL_ERP_UPSTREAM", "shop", "AMCP_CREDENTIAL_ERP_VALUE", "x",
                "AMCP_CREDENTIAL_PETS_VALUE", "y"), UpstreamRulesTest::lookUp);
        assertEquals("${AMCP_UPSTREAM_SHOP}/orders", rules.asTemplate(URI.create("https://shop.example.com/api/orders")));
        assertEquals("${AMCP_UPSTREAM_SHOP_V2}/orders", rules.asTemplate(URI.create("https://shop.example.com/api/v2/orders")), "the longest base wins");
        assertEquals("https://shop.example.com/apiary", rules.asTemplate(URI.create("https://shop.example.com/apiary")), "a path beside the base is not under it");
        assertEquals("https://other.example.com/api", rules.asTemplate(URI.create("https://other.example.com/api")));
        assertEquals("ERP", rules.boundCredential("${AMCP_UPSTREAM_SHOP}/orders"), "bound by AMCP_CREDENTIAL_ERP_UPSTREAM");
        assertEquals("PETS", rules.boundCredential("${AMCP_UPSTREAM_PETS}/v2"), "the credential of the base's own name");
        assertEquals(null, rules.boundCredential("${AMCP_UPSTREAM_SHOP_V2}"), "no credential for this base");
        assertEquals(null, rules.boundCredential("https://shop.example.com/api"));
    }
    /** The grant rule: every operator base covering the URL, and the base a credential is bound to, must be granted or shared. */
    @Test
    void anOperatorBaseIsReachedOnlyWithItsGrantOrWhereShared() {
        Map<String, String> settings = Map.of("AMCP_UPSTREAM_SHOP", "https://shop.example/api", "AMCP_UPSTREAM_SHOPADMIN",
                "https://shop.example/api/admin", "AMCP_UPSTREAM_CRM", "https://crm.example", "AMCP_CREDENTIAL_BILLING_VALUE", "x",
                "AMCP_CREDENTIAL_BILLING_UPSTREAM", "CRM", "AMCP_UPSTREAM_SHARED", "crm");
        UpstreamRules rules = rules(settings, UpstreamRulesTest::lookUp);
        URI admin = URI.create("https://shop.example/api/admin/users");
        assertEquals(java.util.List.of("SHOP", "SHOPADMIN"), java.util.List.copyOf(rules.grantsNeeded(admin, null)));
        assertEquals(java.util.List.of("CRM", "SHOP"), java.util.List.copyOf(rules.grantsNeeded(URI.create("https://shop.example/api/x"), "billing")));
        assertEquals(java.util.List.of(), java.util.List.copyOf(rules.grantsNeeded(URI.create("https://elsewhere.example/api"), null)));
        String refused = assertThrows(InvalidInputException.class, () -> rules.checkOperatorUpstream(admin, null, java.util.Set.of("SHOP"))).getMessage();
        assertEquals("https://shop.example:443/api/admin/users is under the operator's upstream ${AMCP_UPSTREAM_SHOPADMIN}, which the operator "
                + "has not granted to this workspace (/api/upstream-grants)", refused);
        assertDoesNotThrow(() -> rules.checkOperatorUpstream(admin, null, java.util.Set.of("SHOP", "SHOPADMIN")));
        assertDoesNotThrow(() -> rules.checkOperatorUpstream(URI.create("https://crm.example/x"), "billing", java.util.Set.of()), "CRM is shared");
        assertTrue(rules.shared("CRM") && !rules.shared("SHOP"));
        assertTrue(rules(Map.of("AMCP_UPSTREAM_SHARED", "*"), UpstreamRulesTest::lookUp).shared("ANY"));
    }
}
