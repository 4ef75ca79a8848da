package dev.amcp.gateway.governance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.control.LicenseVerifier;
import dev.amcp.gateway.governance.entity.Edition;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class LicenseVerifierTest {

    final LicenseVerifier withTestKey = new LicenseVerifier(List.of(LicenseVerifier.PRODUCTION_KEY, TestLicenses.TEST_PUBLIC_KEY));
    final LicenseVerifier productionOnly = new LicenseVerifier(List.of(LicenseVerifier.PRODUCTION_KEY));

    @Test
    void acceptsASignedLicenseAndReadsItsTerms() {
        var terms = withTestKey.verify(TestLicenses.sign("enterprise", 50, 10_000)).terms();
        assertEquals(Edition.ENTERPRISE, terms.edition());
        assertEquals(50, terms.maxCodeTools());
        assertEquals(10_000, terms.monthlyCodeRuns());
        assertTrue(terms.allowsWrites());
    }

    @Test
    void refusesKeysTheProductDoesNotTrust() {
        var e = assertThrows(IllegalArgumentException.class, () -> productionOnly.verify(TestLicenses.sign("pro", 5, 5)));
        assertEquals("The license signature is not valid for this product", e.getMessage());
    }

    @Test
    void refusesATamperedPayload() {
        String signed = TestLicenses.sign("trial", 3, 100);
        String forged = Base64.getEncoder().encodeToString(
                "{\"edition\":\"enterprise\",\"licensee\":\"Test Corp\",\"issuedAt\":\"2026-01-01T00:00:00Z\"}".getBytes());
        String tampered = signed.replaceFirst("\"payload\":\"[^\"]+\"", "\"payload\":\"" + forged + "\"");
        assertThrows(IllegalArgumentException.class, () -> withTestKey.verify(tampered));
    }

    @Test
    void explainsMalformedDocuments() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> withTestKey.verify("not json")).getMessage().contains("not a JSON"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> withTestKey.verify("{\"payload\":\"x\"}")).getMessage().contains("signature"));
        String noEdition = TestLicenses.signPayload("{\"licensee\":\"x\",\"issuedAt\":\"2026-01-01T00:00:00Z\"}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> withTestKey.verify(noEdition)).getMessage().contains("edition"));
        String badEdition = TestLicenses.signPayload("{\"edition\":\"platinum\",\"licensee\":\"x\",\"issuedAt\":\"2026-01-01T00:00:00Z\"}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> withTestKey.verify(badEdition)).getMessage().contains("platinum"));
    }
}
