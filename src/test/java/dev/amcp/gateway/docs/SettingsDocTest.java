package dev.amcp.gateway.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every setting the gateway reads (a quoted {@code AMCP_…}, {@code CODE_RUNNER_…} or {@code DB_…} name in its code or
 * resources, or a variable of its {@code server.xml}) is in README's configuration section, so an operator never has
 * to read the code to find a knob.
 */
class SettingsDocTest {

    static final Pattern QUOTED = Pattern.compile("\"((?:AMCP|CODE_RUNNER|DB)_[A-Z0-9_]+)\"");
    static final Pattern VARIABLE = Pattern.compile("\\$\\{((?:AMCP|CODE_RUNNER|DB)_[A-Z0-9_]+)}");

    static Set<String> settingsRead() throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Stream.concat(Files.walk(Path.of("src/main/java")), Files.walk(Path.of("src/main/resources")))) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".java")).toList()) {
                collect(QUOTED, Files.readString(file), names);
            }
        }
        collect(VARIABLE, Files.readString(Path.of("src/main/liberty/config/server.xml")), names);
        return names;
    }

    static void collect(Pattern pattern, String text, Set<String> into) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    @Test
    void everySettingTheCodeReadsIsInTheReadme() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String configuration = readme.substring(readme.indexOf("## Configuration"));
        Set<String> names = settingsRead();
        assertTrue(names.containsAll(List.of("AMCP_CODE_MAX_CONCURRENT_RUNS", "DB_MAX_POOL_SIZE", "AMCP_DEMO", "CODE_RUNNER_URL")),
                "the scan finds the settings: " + names);
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            // A prefix such as AMCP_UPSTREAM_ is documented as AMCP_UPSTREAM_<NAME>.
            String documented = name.endsWith("_") ? name + "<" : "`" + name + "`";
            if (!configuration.contains(documented) && !configuration.contains(name + "`")) {
                missing.add(name);
            }
        }
        assertTrue(missing.isEmpty(), "settings the code reads but README's configuration section does not name: " + missing);
    }

    @Test
    void theInstallGuideListsThePoolAndRunLimits() throws IOException {
        String install = Files.readString(Path.of("docs/install.md"));
        for (String name : List.of("AMCP_CODE_MAX_CONCURRENT_RUNS", "DB_MAX_POOL_SIZE")) {
            assertTrue(install.contains("`" + name + "`"), name + " in docs/install.md");
        }
        assertFalse(install.contains("AMCP_METRICS_PUBLIC"), "the metrics setting has one name (README says why)");
    }
}
