package dev.amcp.gateway.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of a server's port whose line can be cut, as a stopped server cuts it: while cut, connecting is
 * refused (nothing listens) and every open connection is closed. {@link #restore()} listens on the same port again, so
 * clients that were given this port find the server back without being told. MultiNodeIT stands one in front of
 * PostgreSQL for the cluster's nodes, and cuts it to stop the database for them alone.
 */
final class CuttablePort implements AutoCloseable {

    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;

    CuttablePort(String host, int targetPort) throws IOException {
        this.target = new InetSocketAddress(host, targetPort);
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        acceptOn(listener);
    }

    int port() {
        return port;
    }

    /** Nothing listens any more and every relayed connection is closed. */
    synchronized void cut() throws IOException {
        listener.close();
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        open.clear();
    }

    /** Listens on the same port again. */
    synchronized void restore() throws IOException {
        if (listener.isClosed()) {
            listener = listen(port);
            acceptOn(listener);
        }
    }

    @Override
    public void close() throws IOException {
        cut();
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true); // the port again at once, whatever its closed connections wait for
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
        return socket;
    }

    private void acceptOn(ServerSocket server) {
        daemon("cuttable-port-" + port, () -> {
            while (!server.isClosed()) {
                try {
                    relay(server.accept());
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private void relay(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(target, 5000);
        } catch (IOException e) {
            closeQuietly(client);
            return;
        }
        open.add(client);
        open.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
    }

    /** Copies one direction until either side ends, then closes both. */
    private void pump(Socket from, Socket to) {
        daemon("cuttable-port-relay", () -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException ended) {
                // either side closed: the relay ends
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        });
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a closed relay
        }
    }
}
