package dev.amcp.gateway.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real upstream MCP server for the tests: {@code @modelcontextprotocol/server-everything} from npm (Node from the
 * PATH, {@code npx -y}) in its Streamable HTTP mode on {@code it.mcp.upstream.port} (default: the IT HTTP port + 5),
 * serving {@code /mcp}. Started by a test class, stopped with its child processes when the class is done.
 */
public final class EverythingUpstream implements AutoCloseable {

    public static final String PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31";

    private final Process process;
    private final int port;

    private EverythingUpstream(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static int port() {
        return Integer.getInteger("it.mcp.upstream.port", Integer.getInteger("it.http.port", 9180) + 5);
    }

    /** Starts the server and waits until it says it listens (npx may first download it). */
    public static EverythingUpstream start() throws IOException, InterruptedException {
        int port = port();
        Path log = Path.of("target", "everything-" + port + ".log");
        Files.deleteIfExists(log);
        ProcessBuilder builder = new ProcessBuilder("npx", "-y", PACKAGE, "streamableHttp")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PORT", String.valueOf(port));
        Process process = builder.start();
        EverythingUpstream upstream = new EverythingUpstream(process, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains("listening on port " + port)) {
                return upstream;
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(200);
        }
        upstream.close();
        throw new IllegalStateException("server-everything did not start on port " + port + ": "
                + (Files.exists(log) ? Files.readString(log) : "(no output)") + " — see " + new File(log.toString()).getAbsolutePath());
    }

    /** The URL of its MCP endpoint. */
    public String url() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    @Override
    public void close() {
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
