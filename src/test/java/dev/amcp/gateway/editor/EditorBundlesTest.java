package dev.amcp.gateway.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.codemode.control.CodeModeGates;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.editor.control.EditorMessages;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.tools.entity.HttpEndpointMapping;
import dev.amcp.gateway.tools.entity.ToolDraft;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The editor's bundles (en, it, de): the same keys in every language, every key the pages, the servlets and the
 * services use, and patterns whose placeholders survive formatting. Also checks that services' messages keep their
 * English wire text while the editor shows them translated.
 */
class EditorBundlesTest {

    private static final List<Locale> LANGUAGES = List.of(Locale.ENGLISH, Locale.ITALIAN, Locale.GERMAN);
    /** Keys of the services' {@link Message}s: gate refusals, field problems and notices. */
    private static final Pattern SERVICE_KEY = Pattern.compile("\"((?:gate|problem|notice)\\.[A-Za-z.]+)\"");
    private static final Pattern PAGE_KEY = Pattern.compile("key=\"([^\"$]+)\"");
    private static final Pattern CODE_KEY = Pattern.compile("(?:msg\\(request|EditorMessages\\.get\\([^,()]+), \"([^\"]+)\"\\s*[,)]");
    /** Keys of {@link Message}s made elsewhere (sign-in refusals, notes): always formatted, like the services' ones. */
    private static final Pattern MESSAGE_KEY = Pattern.compile("(?:Message\\.of|refused)\\(\\s*\"([a-z][A-Za-z.]+)\"");
    private static final Pattern PLACEHOLDER = Pattern.compile("(?<!')\\{(\\d+)");

    @Test
    void everyLanguageHasEveryKey() {
        Set<String> english = EditorMessages.bundle(Locale.ENGLISH).keySet();
        for (String lang : List.of("it", "de")) {
            var bundle = EditorMessages.bundle(Locale.forLanguageTag(lang));
            assertEquals(english, bundle.keySet(), lang);
            assertEquals(Locale.forLanguageTag(lang), bundle.getLocale(), lang + " has its own file");
        }
        assertEquals("Riga 3: un parametro di query per riga, come parametro=argomento.",
                EditorMessages.get(Locale.ITALIAN, "error.mappingLine.query", 3));
    }

    @Test
    void everyKeyUsedByPagesServletsAndServicesIsInEveryLanguage() throws IOException {
        Set<String> serviceKeys = keysIn(Path.of("src/main/java"), ".java", SERVICE_KEY);
        Set<String> used = new TreeSet<>(serviceKeys);
        used.addAll(keysIn(Path.of("src/main/webapp/WEB-INF/views"), "", PAGE_KEY));
        used.addAll(keysIn(Path.of("src/main/java/dev/amcp/gateway/editor"), ".java", CODE_KEY));
        assertTrue(serviceKeys.containsAll(Set.of("gate.capability", "gate.codeToolCount", "notice.codeTool.repinned",
                "problem.codeTool.usesUnknown", "problem.mapping.urlScheme")), "the scan finds the services' keys: " + serviceKeys);
        assertTrue(used.size() > 150, "the scan finds the pages' keys too: " + used.size());
        for (Locale language : LANGUAGES) {
            Set<String> missing = new TreeSet<>(used);
            missing.removeAll(EditorMessages.bundle(language).keySet());
            assertEquals(Set.of(), missing, "missing in " + language);
        }
    }

    @Test
    void everyPatternKeepsItsPlaceholdersAndQuotesInEveryLanguage() throws IOException {
        ResourceBundle english = EditorMessages.bundle(Locale.ENGLISH);
        Set<String> messageKeys = keysIn(Path.of("src/main/java"), ".java", MESSAGE_KEY);
        assertTrue(messageKeys.containsAll(Set.of("sso.refused.noGroup", "sso.refused.state", "upstreams.skipped")), messageKeys.toString());
        int asWritten = 0;
        for (String key : english.keySet()) {
            boolean formatted = SERVICE_KEY.matcher("\"" + key + "\"").matches() || messageKeys.contains(key)
                    || english.getString(key).contains("{");
            if (!formatted) { // shown as written (fmt:message and EditorMessages.get without arguments): no MessageFormat quoting
                for (Locale language : LANGUAGES) {
                    assertFalse(EditorMessages.bundle(language).getString(key).contains("''"),
                            key + " in " + language + " is shown as written: write a single quote as '");
                }
                asWritten++;
                continue;
            }
            Set<String> placeholders = placeholders(english.getString(key));
            for (Locale language : LANGUAGES) {
                String pattern = EditorMessages.bundle(language).getString(key);
                assertEquals(placeholders, placeholders(pattern), key + " in " + language);
                // A lone quote starts a quoted section in MessageFormat and silently swallows what follows.
                String unquoted = pattern.replace("''", "").replace("'{'", "").replace("'}'", "");
                assertFalse(unquoted.contains("'"), key + " in " + language + " has a single quote; write ''");
            }
        }
        assertTrue(asWritten > 100, "most UI strings are shown as written: " + asWritten);
    }

    @Test
    void serviceMessagesKeepTheirEnglishWireTextAndAreTranslatedOnThePage() {
        var draft = new CodeToolDraft(new ToolDraft("main", "w", null, null, null, null, null),
                new CodeToolSpec("return 1", List.of(), CodeToolSpec.INVOKER, true));
        Message refusal = new CodeModeGates.Writes().judge(LicenseTerms.community(), new Object[] {draft}).message();
        assertEquals("Code tools that write (allowWrites) need the Enterprise edition; this gateway runs the community edition",
                refusal.english());
        assertEquals("Gli strumenti di codice che scrivono (allowWrites) richiedono l'edizione Enterprise; questo gateway usa "
                + "l'edizione community.", EditorMessages.get(Locale.ITALIAN, refusal));
        assertTrue(EditorMessages.get(Locale.GERMAN, refusal).startsWith("Code-Werkzeuge, die schreiben"), EditorMessages.get(Locale.GERMAN, refusal));

        var scheme = assertThrows(InvalidInputException.class,
                () -> HttpEndpointMapping.from(JsonSupport.parseObject("{\"method\":\"GET\",\"url\":\"ftp://x/{id}\"}")));
        assertEquals("url must start with http:// or https:// (or a ${AMCP_UPSTREAM_...} setting)", scheme.getMessage());
        assertEquals("Die URL muss mit http:// oder https:// beginnen (oder mit einer Einstellung ${AMCP_UPSTREAM_...}).",
                EditorMessages.get(Locale.GERMAN, scheme.problem()));

        Message big = Message.of("problem.codeTool.codeTooLong", "Code is limited to {0} characters", 100_000);
        assertEquals("Code is limited to 100000 characters", big.english(), "numbers are not grouped");
        assertEquals("'x' is not a tool of this workspace",
                Message.of("problem.codeTool.usesUnknown", "''{0}'' is not a tool of this workspace", "x").english());
        assertEquals("Il parametro URL {id} non è una proprietà dello schema di input.",
                EditorMessages.get(Locale.ITALIAN, Message.of("problem.tool.urlParameter", "unused", "id")));
        assertEquals("fallback", EditorMessages.get(Locale.ITALIAN, Message.of("no.such.key", "fallback")),
                "a key the bundles lack shows the English text");
    }

    private static Set<String> placeholders(String pattern) {
        Set<String> found = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static Set<String> keysIn(Path root, String suffix, Pattern pattern) throws IOException {
        Set<String> keys = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> Files.isRegularFile(f) && f.toString().endsWith(suffix)).toList()) {
                Matcher m = pattern.matcher(Files.readString(file));
                while (m.find()) {
                    keys.add(m.group(1));
                }
            }
        }
        return keys;
    }
}
