package dev.amcp.gateway.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The feature packages import each other exactly as the table of {@code docs/architecture.md} says ("may import"),
 * and the arrows form no cycle, so dependencies run one way and the document states the present.
 */
class FeatureArrowsTest {

    static final Path ROOT = Path.of("src/main/java/dev/amcp/gateway");
    static final Pattern REFERENCE = Pattern.compile("\\bdev\\.amcp\\.gateway\\.([a-z]+)\\.");
    static final Pattern ROW = Pattern.compile("^\\| `([a-z]+)` \\|.*\\| ([^|]*) \\|$", Pattern.MULTILINE);
    static final Pattern NAME = Pattern.compile("`([a-z]+)`");

    /** Each feature and the features its code names (imports, fully qualified names, javadoc links). */
    static Map<String, Set<String>> arrowsInCode() throws IOException {
        Map<String, Set<String>> arrows = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path relative = ROOT.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue;
                }
                String feature = relative.getName(0).toString();
                Set<String> targets = arrows.computeIfAbsent(feature, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(Files.readString(file).replaceFirst("(?m)^package .*$", ""));
                while (m.find()) {
                    if (!m.group(1).equals(feature)) {
                        targets.add(m.group(1));
                    }
                }
            }
        }
        return arrows;
    }

    /** The table's "may import" column: the backticked feature names of each row ("no feature": none). */
    static Map<String, Set<String>> arrowsInDoc() throws IOException {
        String doc = Files.readString(Path.of("docs/architecture.md"));
        Map<String, Set<String>> arrows = new TreeMap<>();
        Matcher row = ROW.matcher(doc);
        while (row.find()) {
            Set<String> targets = new TreeSet<>();
            Matcher name = NAME.matcher(row.group(2));
            while (name.find()) {
                targets.add(name.group(1));
            }
            arrows.put(row.group(1), targets);
        }
        return arrows;
    }

    @Test
    void theCodeImportsExactlyWhatTheArchitectureTableAllows() throws IOException {
        assertEquals(arrowsInDoc(), arrowsInCode(), "docs/architecture.md's 'may import' column against the code's arrows");
    }

    @Test
    void theArrowsFormNoCycle() throws IOException {
        Map<String, Set<String>> arrows = arrowsInCode();
        Set<String> done = new TreeSet<>();
        for (String feature : arrows.keySet()) {
            List<String> cycle = cycleFrom(feature, arrows, new ArrayList<>(), done);
            assertTrue(cycle.isEmpty(), "import cycle: " + String.join(" -> ", cycle));
        }
    }

    /** A depth-first walk; answers the cycle it meets, else empty. */
    static List<String> cycleFrom(String feature, Map<String, Set<String>> arrows, List<String> path, Set<String> done) {
        if (path.contains(feature)) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(feature), path.size()));
            cycle.add(feature);
            return cycle;
        }
        if (done.contains(feature)) {
            return List.of();
        }
        path.add(feature);
        for (String target : arrows.getOrDefault(feature, Set.of())) {
            List<String> cycle = cycleFrom(target, arrows, path, done);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        done.add(feature);
        return List.of();
    }
}
