package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.platform.control.Settings;
import java.net.InetAddress;
import java.util.Map;

/** Upstream beans for unit tests of other packages, built without CDI. */
public final class UpstreamFixtures {

    private UpstreamFixtures() {}

    /** The rule over these settings, every host name resolving to {@code address}. */
    public static UpstreamRules rules(Map<String, String> settings, InetAddress address) {
        return new UpstreamRules(settings, host -> new InetAddress[] {address});
    }

    /** Outbound clients sending through this rule, started as at deployment. */
    public static OutboundHttp http(Settings settings, UpstreamRules rules) {
        OutboundHttp http = new OutboundHttp();
        http.settings = settings;
        http.upstreams = rules;
        http.init();
        return http;
    }
}
