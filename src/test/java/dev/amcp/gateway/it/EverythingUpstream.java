package dev.amcp.gateway.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real upstream MCP server for the tests: {@code @modelcontextprotocol/server-everything} from npm (Node from the
 * PATH, {@code npx -y}) in its Streamable HTTP mode on {@code it.mcp.upstream.port} (default: the IT HTTP port + 6; + 5 is the OTLP receiver),
 * serving {@code /mcp}. A test class registers it ({@code @RegisterExtension static final EverythingUpstream
 * EVERYTHING = new EverythingUpstream();}): started before the class's tests, stopped with its child processes after.
 */
public final class EverythingUpstream implements BeforeAllCallback, AfterAllCallback {

    public static final String PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31";

    private Process process;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        process = start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop(process);
    }

    public static int port() {
        return Integer.getInteger("it.mcp.upstream.port", Integer.getInteger("it.http.port", 9180) + 6);
    }

    /** Starts the server and waits until it says it listens (npx may first download it). */
    private static Process start() throws IOException, InterruptedException {
        int port = port();
        Path log = Path.of("target", "everything-" + port + ".log");
        Files.deleteIfExists(log);
        ProcessBuilder builder = new ProcessBuilder("npx", "-y", PACKAGE, "streamableHttp")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PORT", String.valueOf(port));
        Process process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains("listening on port " + port)) {
                return process;
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(200);
        }
        stop(process);
        throw new IllegalStateException("server-everything did not start on port " + port + ": "
                + (Files.exists(log) ? Files.readString(log) : "(no output)") + " — see " + new File(log.toString()).getAbsolutePath());
    }

    private static void stop(Process process) {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
