package dev.amcp.gateway.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed {@code docs/llms.txt} and {@code docs/llms-full.txt} are what the generator makes of the docs today. */
class LlmsIndexTest {

    static final String HOW = " is stale: run `mvn -Pupdate-llms process-test-classes` and commit it";

    @Test
    void llmsTxtIsCurrent() throws Exception {
        assertEquals(LlmsIndex.index(Path.of("docs")), Files.readString(Path.of("docs/llms.txt")), "docs/llms.txt" + HOW);
    }

    @Test
    void llmsFullTxtIsCurrent() throws Exception {
        assertEquals(LlmsIndex.full(Path.of("docs")), Files.readString(Path.of("docs/llms-full.txt")), "docs/llms-full.txt" + HOW);
    }

    @Test
    void theIndexListsEveryDocumentWithItsTitle() throws Exception {
        String index = LlmsIndex.index(Path.of("docs"));
        for (String doc : new String[]{"architecture.md", "code-mode.md", "install.md", "security.md", "benchmarks.md"}) {
            assertTrue(index.contains("](" + doc + ")"), doc + " missing from the index");
        }
        assertTrue(index.contains("- [Code mode](code-mode.md): "), index);
    }
}
