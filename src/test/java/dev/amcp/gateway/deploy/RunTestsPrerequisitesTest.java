package dev.amcp.gateway.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's test command on a machine that lacks a prerequisite stops before it starts anything, with one line
 * naming what to install, instead of failing half-way through Maven.
 */
class RunTestsPrerequisitesTest {

    @Test
    void aMissingChromedriverStopsTheTestCommandBeforeMavenWithOneLine() throws Exception {
        Path output = Files.createTempFile("run-tests-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder("bash", "run-tests.sh").redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            builder.environment().put("CHROMEDRIVER", "/nonexistent/chromedriver");
            builder.environment().put("CHROMIUM", "/bin/true");
            builder.environment().put("AMCP_TESTS_INSTALL", "never");
            Process process = builder.start();
            boolean finished = process.waitFor(30, TimeUnit.SECONDS);
            if (!finished) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
            assertTrue(finished, "it must stop at once, not run the tests: " + lines);
            assertEquals(3, process.exitValue(), String.join("\n", lines));
            assertEquals(1, lines.size(), "one line: " + lines);
            assertTrue(lines.get(0).contains("chromedriver (/nonexistent/chromedriver)")
                    && lines.get(0).contains("apt-get install chromium-driver"), lines.get(0));
            assertFalse(lines.get(0).contains("==>"), "no step was started");
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
