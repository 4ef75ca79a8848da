package dev.amcp.gateway.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.editor.control.CsrfTokens;
import dev.amcp.gateway.editor.control.EditorLocales;
import dev.amcp.gateway.editor.control.EditorMessages;
import dev.amcp.gateway.editor.control.HttpToolForms;
import dev.amcp.gateway.editor.entity.HttpToolForm;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Language choice, CSRF tokens and the HTTP tool form's own checks, without a server (bundles: {@link EditorBundlesTest}). */
class EditorControlTest {

    @Test
    void switcherBeatsAcceptLanguageWhichBeatsEnglish() {
        var accepted = Collections.enumeration(List.of(Locale.forLanguageTag("fr-FR"), Locale.forLanguageTag("de-CH")));
        assertEquals("de", EditorLocales.resolve(null, accepted).getLanguage());
        assertEquals("it", EditorLocales.resolve("it", Collections.enumeration(List.of(Locale.GERMAN))).getLanguage());
        assertEquals("en", EditorLocales.resolve("xx", Collections.enumeration(List.of(Locale.FRENCH))).getLanguage());
    }

    @Test
    void csrfTokensAreRandomAndCompared() {
        String token = CsrfTokens.newToken();
        assertTrue(token.length() >= 43);
        assertTrue(CsrfTokens.matches(token, token));
        assertFalse(CsrfTokens.matches(token, CsrfTokens.newToken()));
        assertFalse(CsrfTokens.matches(null, null));
    }

    @Test
    void formProblemsAreReportedPerFieldAndNothingBadReachesTheDraft() {
        HttpToolForm form = new HttpToolForm();
        form.setName("orders_get");
        form.setUrl("${AMCP_UPSTREAM_SHOP}/orders/{id}");
        form.setQuery("status=status\nnot a line");
        form.setHeaders("Accept: application/json");
        form.setTimeoutMs("soon");
        form.setInputSchema("{\"type\": ");
        Map<String, String> errors = new LinkedHashMap<>();
        var draft = HttpToolForms.toDraft(form, Locale.GERMAN, errors);
        assertEquals(Set.of("query", "timeoutMs", "inputSchema"), errors.keySet());
        assertTrue(errors.get("query").startsWith("Zeile 2"), errors.get("query"));
        assertNull(draft.inputSchema());
        assertEquals("application/json", draft.endpointMapping().getJsonObject("headers").getString("Accept"));
        assertEquals(Map.of("name", "taken", "url", "bad mapping"),
                HttpToolForms.fieldsOf(Map.of("name", "taken", "endpointMapping", "bad mapping")));
    }
}
