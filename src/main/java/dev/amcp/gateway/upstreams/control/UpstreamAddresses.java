package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link UpstreamRules} judges, read without DNS: the part of a URL the rule looks at ({@link Target}), an
 * operator base ({@link Base}), an entry of the allow-list or the egress rules ({@link AllowedHost}), the blocks of
 * special addresses ({@link Block}), and address literals in their every spelling. It parses and matches; which
 * entries count for a call, and what is refused, is the rule's.
 */
final class UpstreamAddresses {

    private UpstreamAddresses() {}

    /**
     * Whether a path (or a piece of one, such as an argument) walks the path: a {@code .} or {@code ..} segment,
     * also percent-encoded (once or more) or separated by {@code \}, which some servers read as {@code /}.
     */
    static boolean walksPath(String path) {
        String text = path;
        for (int i = 0; i < 3 && text.contains("%"); i++) {
            try {
                text = URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                break; // a lone '%' is not an encoding; judge the text as it is
            }
        }
        return Arrays.stream(text.split("[/\\\\]", -1)).anyMatch(s -> s.equals(".") || s.equals(".."));
    }

    static InvalidInputException refused(String key, String englishPattern, Object... args) {
        return new InvalidInputException(Message.of(key, englishPattern, args));
    }


    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /** An address written as one (dotted quad without leading zeros, or IPv6), without DNS; else null. */
    static InetAddress parseLiteral(String host) {
        if (!IPV4.matcher(host).matches() && !IPV6.matcher(host).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(host); // a literal: no lookup
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** IPv4 carried in IPv6 (mapped, compatible, NAT64) is judged as the IPv4 address it carries. */
    static InetAddress normalize(InetAddress address) {
        if (address instanceof Inet6Address) {
            byte[] b = address.getAddress();
            boolean zero80 = Arrays.equals(Arrays.copyOf(b, 10), new byte[10]);
            boolean mapped = zero80 && b[10] == (byte) 0xff && b[11] == (byte) 0xff;
            boolean compatible = zero80 && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] == 0 || b[15] == 1));
            boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b
                    && Arrays.equals(Arrays.copyOfRange(b, 4, 12), new byte[8]);
            if (mapped || compatible || nat64) {
                try {
                    return InetAddress.getByAddress(Arrays.copyOfRange(b, 12, 16));
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return address;
    }

    static String unbracket(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return h.toLowerCase(Locale.ROOT);
    }

    static boolean inNetwork(byte[] network, int prefix, byte[] address) {
        if (network.length != address.length) {
            return false;
        }
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >> (bit % 8);
            if ((network[bit / 8] & mask) != (address[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** A block of special addresses. */
    record Block(String kind, byte[] network, int prefix) {
        private static final List<Block> SPECIAL = List.of(
                block("a loopback address", "127.0.0.0", 8), block("a loopback address", "::1", 128),
                block("an unspecified address", "0.0.0.0", 8), block("an unspecified address", "::", 128),
                block("a link-local address (cloud metadata lives here)", "169.254.0.0", 16),
                block("a link-local address", "fe80::", 10),
                block("a cloud metadata address", "100.100.100.200", 32), block("a cloud metadata address", "fd00:ec2::254", 128),
                block("a multicast address", "224.0.0.0", 4), block("a broadcast address", "255.255.255.255", 32),
                block("a multicast address", "ff00::", 8));

        static Block block(String kind, String network, int prefix) {
            return new Block(kind, parseLiteral(network).getAddress(), prefix);
        }

        static List<Block> specialOf(InetAddress address) {
            return SPECIAL.stream().filter(b -> inNetwork(b.network, b.prefix, address.getAddress())).toList();
        }

        /** Whether a range lies wholly inside this block. */
        boolean holds(byte[] rangeNetwork, int rangePrefix) {
            return rangePrefix >= prefix && inNetwork(network, prefix, rangeNetwork);
        }
    }

    /** The part of a URL the rule judges. */
    record Target(String scheme, String host, int port, String path, InetAddress literal) {
        static Target of(URI uri) {
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getHost().isEmpty()) {
                throw refused("problem.upstream.scheme", "an upstream URL must be http:// or https:// with a host, not {0}", uri);
            }
            if (uri.getRawUserInfo() != null) {
                throw refused("problem.upstream.userInfo", "an upstream URL may not carry a user name or password; use a credential");
            }
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (walksPath(path)) {
                throw refused("problem.upstream.dotSegment", "an upstream URL path may not contain . or .. segments (also percent-encoded)");
            }
            String host = unbracket(uri.getHost());
            int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            return new Target(scheme, host, port, path, parseLiteral(host));
        }

        String hostPort() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }

        String origin() {
            return scheme + "://" + hostPort();
        }

        /** Whether {@code t} lies under this URL taken as a base: same scheme, host and port, a path at or below this one's. */
        boolean covers(Target t) {
            return scheme.equals(t.scheme()) && host.equals(t.host()) && port == t.port()
                    && (path.isEmpty() || t.path().equals(path) || t.path().startsWith(path + "/"));
        }
    }

    /** An operator base, {@code AMCP_UPSTREAM_<NAME>}. */
    record Base(String setting, String text, Target target) {
        static Base parse(String setting, String value) {
            String text = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
            try {
                URI uri = new URI(text);
                if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    throw new IllegalStateException("Setting " + setting + " must be a base URL without query or fragment, got '" + value + "'");
                }
                return new Base(setting, text, Target.of(uri));
            } catch (java.net.URISyntaxException | InvalidInputException e) {
                throw new IllegalStateException("Setting " + setting + " must be an http:// or https:// base URL with a host, got '" + value + "'", e);
            }
        }

        InetAddress literal() {
            return target.literal() == null ? null : normalize(target.literal());
        }

        boolean covers(Target t) {
            return target.covers(t);
        }
    }

    /**
     * One entry of {@code AMCP_UPSTREAM_ALLOWED_HOSTS} or of the egress rules: a host name ({@code *.example.com} for
     * the names below one), or an address range; with an optional port.
     */
    record AllowedHost(String name, byte[] network, int prefix, Integer port) {
        private static final Pattern NAME = Pattern.compile("(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");

        static AllowedHost parse(String entry) {
            String text = entry.toLowerCase(Locale.ROOT);
            String host = text;
            Integer port = null;
            int prefix = -1;
            Matcher bracketed = Pattern.compile("\\[([^]]+)](?::(\\d{1,5}))?").matcher(text);
            if (bracketed.matches()) {
                host = bracketed.group(1);
                port = bracketed.group(2) == null ? null : Integer.valueOf(bracketed.group(2));
            } else if (text.contains("/")) {
                host = text.substring(0, text.indexOf('/'));
                String bits = text.substring(text.indexOf('/') + 1);
                prefix = bits.matches("\\d{1,3}") ? Integer.parseInt(bits) : 999;
            } else if (text.chars().filter(c -> c == ':').count() == 1) {
                host = text.substring(0, text.indexOf(':'));
                String digits = text.substring(text.indexOf(':') + 1);
                port = digits.matches("\\d{1,5}") ? Integer.valueOf(digits) : -1;
            }
            InetAddress address = parseLiteral(host);
            boolean badPort = port != null && (port < 1 || port > 65535);
            if (address == null && (prefix != -1 || !NAME.matcher(host).matches()) || badPort
                    || address != null && prefix > address.getAddress().length * 8) {
                throw new IllegalStateException("Setting " + UpstreamRules.ALLOWED_HOSTS + ": '" + entry
                        + "' is not a host, *.domain, host:port, IP address, [IPv6]:port or CIDR range");
            }
            if (address == null) {
                return new AllowedHost(host, null, 0, port);
            }
            InetAddress normal = normalize(address);
            int bits = prefix == -1 ? normal.getAddress().length * 8
                    : normal instanceof Inet4Address && address instanceof Inet6Address ? Math.max(0, prefix - 96) : prefix;
            return new AllowedHost(null, normal.getAddress(), bits, port);
        }

        boolean portMatches(int p) {
            return port == null || port == p;
        }

        boolean matches(Target t) {
            if (!portMatches(t.port())) {
                return false;
            }
            if (name != null) {
                // *.example.com: any name below example.com, not example.com itself
                return t.literal() == null && (name.startsWith("*.") ? t.host().endsWith(name.substring(1)) : name.equals(t.host()));
            }
            return t.literal() != null && inNetwork(network, prefix, normalize(t.literal()).getAddress());
        }

        /** Whether this entry names a special address explicitly: it holds the address and lies inside each of its blocks. */
        boolean unlocks(InetAddress address, int p, List<Block> blocks) {
            return name == null && portMatches(p) && inNetwork(network, prefix, address.getAddress())
                    && blocks.stream().allMatch(b -> b.holds(network, prefix));
        }
    }
}
