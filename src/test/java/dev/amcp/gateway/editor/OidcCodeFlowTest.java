package dev.amcp.gateway.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.amcp.gateway.editor.control.OidcCodeFlow;
import org.junit.jupiter.api.Test;

/** The PKCE challenge the editor's single sign-on sends. */
class OidcCodeFlowTest {

    @Test
    void theS256ChallengeIsTheOneOfRfc7636() {
        // RFC 7636, appendix B.
        assertEquals("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                dev.amcp.gateway.platform.control.Hashes.codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"));
    }
}
