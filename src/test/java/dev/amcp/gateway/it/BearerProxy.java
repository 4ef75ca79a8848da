package dev.amcp.gateway.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A loopback HTTP/1.1 proxy that adds {@code Authorization: Bearer <key>} to each request it passes to the gateway
 * and changes nothing else: the request line, every header (Host, Origin, {@code Mcp-Param-*}, repeated ones) and the
 * body go through as sent, and the gateway's answer comes back byte for byte as it is written, so a stream's timing
 * and framing are the gateway's own. Clients that cannot send an API key (the conformance suite) see the gateway as if
 * they called it directly. One gateway connection per client connection; requests on it are framed by
 * {@code Content-Length} or chunked encoding.
 */
final class BearerProxy implements Closeable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final byte[] authorization;

    /** Starts a proxy to the host and port of {@code gateway} (its path is not used: requests keep their own). */
    BearerProxy(String gateway, String key) throws IOException {
        URI uri = URI.create(gateway);
        this.target = new InetSocketAddress(uri.getHost(), uri.getPort());
        this.authorization = ("Authorization: Bearer " + key + "\r\n").getBytes(StandardCharsets.US_ASCII);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptAll, "bearer-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptAll() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket gateway = new Socket();
                gateway.connect(target, 5000);
                client.setTcpNoDelay(true);
                gateway.setTcpNoDelay(true);
                daemon(() -> requests(client, gateway));
                daemon(() -> answers(gateway, client));
            } catch (IOException e) {
                // listener closed, or the gateway refused: the client sees its connection end
            }
        }
    }

    private static void daemon(Runnable task) {
        Thread t = new Thread(task, "bearer-proxy-conn");
        t.setDaemon(true);
        t.start();
    }

    /** Client to gateway: each request's head gets the Authorization line; its body is copied as framed. */
    private void requests(Socket client, Socket gateway) {
        try (client; gateway) {
            InputStream in = new BufferedInputStream(client.getInputStream());
            OutputStream out = gateway.getOutputStream();
            byte[] head;
            while ((head = head(in)) != null) {
                String text = new String(head, StandardCharsets.ISO_8859_1);
                int endOfRequestLine = text.indexOf("\r\n") + 2;
                ByteArrayOutputStream rewritten = new ByteArrayOutputStream(head.length + authorization.length);
                rewritten.write(head, 0, endOfRequestLine);
                rewritten.write(authorization);
                rewritten.write(head, endOfRequestLine, head.length - endOfRequestLine);
                out.write(rewritten.toByteArray());
                String headers = text.toLowerCase(Locale.ROOT);
                if (headers.matches("(?s).*\r\ntransfer-encoding:[^\r]*chunked.*")) {
                    copyChunked(in, out);
                } else {
                    copy(in, out, contentLength(headers));
                }
                out.flush();
            }
        } catch (IOException e) {
            // either side went away: both sockets close
        }
    }

    /** Gateway to client, as it arrives. */
    private static void answers(Socket gateway, Socket client) {
        try (gateway; client) {
            InputStream in = gateway.getInputStream();
            OutputStream out = client.getOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side went away
        }
    }

    /** The bytes up to and including the blank line after the headers; null at the end of the connection. */
    private static byte[] head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(1024);
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                return head.toByteArray();
            }
            if (head.size() > 65536) {
                throw new IOException("request head too long");
            }
        }
        return null;
    }

    private static long contentLength(String lowerCaseHead) {
        int at = lowerCaseHead.indexOf("\r\ncontent-length:");
        if (at < 0) {
            return 0;
        }
        int end = lowerCaseHead.indexOf("\r\n", at + 2);
        return Long.parseLong(lowerCaseHead.substring(at + "\r\ncontent-length:".length(), end).strip());
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[8192];
        while (length > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, length));
            if (n < 0) {
                throw new IOException("request body ended early");
            }
            out.write(buffer, 0, n);
            length -= n;
        }
    }

    /** Chunks as sent, up to the last chunk and the trailers' blank line. */
    private static void copyChunked(InputStream in, OutputStream out) throws IOException {
        while (true) {
            String sizeLine = line(in, out);
            int semicolon = sizeLine.indexOf(';');
            long size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
            if (size == 0) {
                while (!line(in, out).isEmpty()) {
                    // trailers
                }
                return;
            }
            copy(in, out, size);
            line(in, out); // the CRLF after the chunk
        }
    }

    /** Copies one CRLF-terminated line and returns it without the CRLF. */
    private static String line(InputStream in, OutputStream out) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            out.write(b);
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        throw new IOException("request ended inside a chunk");
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
