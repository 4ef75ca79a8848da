package dev.amcp.gateway.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Generates {@code llms.txt} (an index: one line per document with its title and summary) and
 * {@code llms-full.txt} (every document in full) from {@code docs/*.md}, following the llmstxt.org layout. The
 * build runs {@link #main} into {@code target/generated-docs}; {@code LlmsIndexTest} fails when the committed copies
 * in {@code docs/} differ, and {@code mvn -Pupdate-llms process-test-classes} rewrites them.
 */
public final class LlmsIndex {

    static final String TITLE = "# AMCP Gateway";
    static final String SUMMARY = "> A self-hosted MCP gateway on Open Liberty: company HTTP APIs become MCP tools grouped into "
            + "servers per workspace, with role-based access and code mode (one JavaScript program orchestrating several tools, "
            + "run in a locked-down Deno sandbox).";

    private LlmsIndex() {}

    /** A document: its file name, first heading and first paragraph. */
    record Doc(String file, String title, String summary, String text) {}

    static List<Doc> docs(Path docsDir) throws IOException {
        List<Doc> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(docsDir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".md")).sorted().toList()) {
                String text = Files.readString(file, StandardCharsets.UTF_8).replace("\r\n", "\n");
                docs.add(new Doc(file.getFileName().toString(), title(text, file), summary(text), text));
            }
        }
        return docs;
    }

    static String index(Path docsDir) throws IOException {
        StringBuilder out = new StringBuilder(TITLE).append("\n\n").append(SUMMARY).append("\n\n## Docs\n\n");
        for (Doc doc : docs(docsDir)) {
            out.append("- [").append(doc.title()).append("](").append(doc.file()).append(')');
            if (!doc.summary().isEmpty()) {
                out.append(": ").append(doc.summary());
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String full(Path docsDir) throws IOException {
        StringBuilder out = new StringBuilder(TITLE).append("\n\n").append(SUMMARY).append("\n");
        for (Doc doc : docs(docsDir)) {
            out.append("\n---\n\n<!-- docs/").append(doc.file()).append(" -->\n\n").append(doc.text().strip()).append('\n');
        }
        return out.toString();
    }

    private static String title(String text, Path file) {
        return text.lines().filter(l -> l.startsWith("# ")).findFirst().map(l -> l.substring(2).strip())
                .orElse(file.getFileName().toString());
    }

    /** The first prose paragraph after the title, as one line, cut at its first sentence. */
    private static String summary(String text) {
        List<String> paragraph = new ArrayList<>();
        boolean pastTitle = false;
        for (String line : text.lines().toList()) {
            if (!pastTitle) {
                pastTitle = line.startsWith("# ");
                continue;
            }
            boolean prose = !line.isBlank() && !line.startsWith("#") && !line.startsWith("|") && !line.startsWith("```")
                    && !line.startsWith(">") && !line.startsWith("<");
            if (prose) {
                paragraph.add(line.strip());
            } else if (!paragraph.isEmpty()) {
                break;
            }
        }
        String joined = String.join(" ", paragraph);
        int end = joined.indexOf(". ");
        return end < 0 ? joined : joined.substring(0, end + 1);
    }

    /** Writes both files: {@code args[0]} is the docs folder, {@code args[1]} the output folder. */
    public static void main(String[] args) throws IOException {
        Path docs = Path.of(args.length > 0 ? args[0] : "docs");
        Path out = Path.of(args.length > 1 ? args[1] : "target/generated-docs");
        Files.createDirectories(out);
        Files.writeString(out.resolve("llms.txt"), index(docs), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("llms-full.txt"), full(docs), StandardCharsets.UTF_8);
        System.out.println("llms indexes of " + docs + " written to " + out);
    }
}
