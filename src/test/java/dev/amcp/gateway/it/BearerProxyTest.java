package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite's proxy must be invisible: what the suite sends reaches the gateway unchanged but for the
 * API key, and the answer comes back as it is written. The proxy it replaces passed on a fixed list of headers (the
 * first value of each, and not Host) and talked HTTP/2 to the gateway (the JDK client's h2c upgrade) where the suite
 * talks HTTP/1.1, so the test did not see what a direct run sees.
 */
class BearerProxyTest {

    @Test
    void requestsPassUnchangedButForTheKeyAndAnswersStreamAsWritten() throws Exception {
        try (ServerSocket gateway = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             BearerProxy proxy = new BearerProxy("http://127.0.0.1:" + gateway.getLocalPort(), "k1");
             Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            CompletableFuture<String> received = CompletableFuture.supplyAsync(() -> serveTwo(gateway));
            OutputStream out = client.getOutputStream();
            String first = "POST /mcp/conf HTTP/1.1\r\nHost: localhost:1\r\nMcp-Param-Region: =?base64?SGVsbG8=?=\r\n"
                    + "X-Twice: a\r\nX-Twice: b\r\nContent-Length: 2\r\n\r\n{}";
            String second = "POST /mcp/conf HTTP/1.1\r\nHost: localhost:1\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "2\r\n{}\r\n0\r\n\r\n";
            out.write((first + second).getBytes(StandardCharsets.US_ASCII));
            out.flush();

            InputStream in = client.getInputStream();
            assertEquals("event: ack\n", readExactly(in, "event: ack\n".length()), "the first event arrives before the answer ends");
            String rest = readExactly(in, "event: end\n".length());
            assertEquals("event: end\n", rest);
            String expected = first.replace("POST /mcp/conf HTTP/1.1\r\n", "POST /mcp/conf HTTP/1.1\r\nAuthorization: Bearer k1\r\n")
                    + second.replace("POST /mcp/conf HTTP/1.1\r\n", "POST /mcp/conf HTTP/1.1\r\nAuthorization: Bearer k1\r\n");
            assertEquals(expected, received.get(10, TimeUnit.SECONDS));
        }
    }

    /** Answers with one event, waits for both requests to arrive, then writes the second event; returns what came in. */
    private static String serveTwo(ServerSocket gateway) {
        try (Socket s = gateway.accept()) {
            OutputStream out = s.getOutputStream();
            out.write("event: ack\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[1024];
            while (!all.toString(StandardCharsets.US_ASCII).endsWith("0\r\n\r\n")) {
                int n = in.read(buffer);
                assertTrue(n > 0, "the proxy closed the connection early");
                all.write(buffer, 0, n);
            }
            out.write("event: end\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return all.toString(StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readExactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
