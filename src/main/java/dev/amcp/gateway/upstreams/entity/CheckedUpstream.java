package dev.amcp.gateway.upstreams.entity;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;

/**
 * An upstream URL that passed the upstream rule at call time, and the one address the rule checked. The call goes to
 * {@link #pinnedUri()} (the URL with that address as its host), so no second DNS lookup can send it elsewhere; the
 * name travels in the {@code Host} header and, for HTTPS, in SNI, where the certificate is checked against it.
 */
public record CheckedUpstream(URI uri, InetAddress address) {

    /** Whether the URL names its host (rather than writing an address), so Host and SNI must carry the name. */
    public boolean named() {
        String host = uri.getHost();
        return !host.startsWith("[") && !host.equals(address.getHostAddress());
    }

    /** The URL with the checked address in place of its host; path and query stay as they were encoded. */
    public URI pinnedUri() {
        String ip = address.getHostAddress().replace("%", "%25");
        String host = address instanceof Inet6Address ? "[" + ip + "]" : ip;
        return URI.create(uri.getScheme() + "://" + host + (uri.getPort() == -1 ? "" : ":" + uri.getPort())
                + (uri.getRawPath() == null ? "" : uri.getRawPath()) + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }

    /** The Host header the upstream expects: the URL's own host and port. */
    public String hostHeader() {
        return uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
    }

    /** The name for SNI and the certificate check. */
    public String serverName() {
        return uri.getHost();
    }
}
