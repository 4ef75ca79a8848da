package dev.amcp.gateway.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The editor's screenshots in {@code docs/images} are the files the browser tests write
 * ({@code -Dit.screenshots.dir=docs/images}): the docs use exactly the names the tests produce, and no image there
 * is left over from an older run or copied by hand.
 */
class ScreenshotsDocTest {

    private static final Pattern TAKEN = Pattern.compile("screenshot\\(\"([a-z0-9-]+)\"[,)]");
    private static final Pattern USED = Pattern.compile("images/(editor-[a-z0-9-]+\\.png)");

    @Test
    void theDocsShowExactlyTheScreenshotsTheBrowserTestsTake() throws IOException {
        Set<String> taken = new TreeSet<>();
        try (Stream<Path> tests = Files.list(Path.of("src/test/java/dev/amcp/gateway/it/browser"))) {
            for (Path test : tests.toList()) {
                Matcher m = TAKEN.matcher(Files.readString(test));
                while (m.find()) {
                    taken.add("editor-" + m.group(1) + ".png");
                }
            }
        }
        Set<String> used = new TreeSet<>();
        for (Path doc : new Path[] {Path.of("README.md"), Path.of("docs/editor.md")}) {
            Matcher m = USED.matcher(Files.readString(doc));
            while (m.find()) {
                used.add(m.group(1));
            }
        }
        Set<String> committed = new TreeSet<>();
        try (Stream<Path> images = Files.list(Path.of("docs/images"))) {
            images.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("editor-")).forEach(committed::add);
        }
        assertTrue(taken.size() >= 10, "the browser tests take the main pages: " + taken);
        assertTrue(used.containsAll(Set.of("editor-servers.png", "editor-code-tool-completion.png", "editor-code-tool-test.png",
                "editor-run-detail.png", "editor-proposal-diff.png", "editor-license.png", "editor-keys.png")), used.toString());
        assertEquals(taken, used, "docs/editor.md shows every screenshot the tests take, by the same names");
        assertEquals(taken, committed, "docs/images holds exactly the tests' screenshots (-Dit.screenshots.dir=docs/images)");
    }
}
