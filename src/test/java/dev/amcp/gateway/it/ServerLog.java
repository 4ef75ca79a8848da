package dev.amcp.gateway.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The integration-test server's {@code messages.log}, which every deployment of the run writes to. */
public final class ServerLog {

    private ServerLog() {
    }

    public static Path messages() {
        return Path.of("target", "liberty", "wlp", "usr", "servers", System.getProperty("it.server.name", "amcp-it"), "logs", "messages.log");
    }

    public static String text() throws IOException {
        return Files.readString(messages(), StandardCharsets.UTF_8);
    }

    /** The lines that contain {@code needle}. */
    public static List<String> lines(String needle) throws IOException {
        try (Stream<String> lines = Files.lines(messages(), StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(needle)).toList();
        }
    }

    /** Liberty's notes of each FFDC incident it wrote (one per kind of exception and place, for the server's life). */
    public static List<String> incidents() throws IOException {
        return lines("FFDC1015I");
    }
}
