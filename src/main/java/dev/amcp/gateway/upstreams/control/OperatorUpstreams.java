package dev.amcp.gateway.upstreams.control;

import static dev.amcp.gateway.upstreams.control.UpstreamAddresses.refused;
import static dev.amcp.gateway.upstreams.control.UpstreamAddresses.unbracket;
import static dev.amcp.gateway.upstreams.control.UpstreamRules.ALLOWED_HOSTS;
import static dev.amcp.gateway.upstreams.control.UpstreamRules.BASE_PREFIX;
import static dev.amcp.gateway.upstreams.control.UpstreamRules.SHARED;

import dev.amcp.gateway.upstreams.control.UpstreamAddresses.AllowedHost;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.Base;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.Target;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;

/**
 * What the operator configured for upstreams, read once from the settings: the bases ({@code AMCP_UPSTREAM_<NAME>}),
 * the allow-list ({@value UpstreamRules#ALLOWED_HOSTS}, parsed and as written), which upstream each credential is bound
 * to and which credentials have a value, the upstreams shared with every workspace ({@value UpstreamRules#SHARED}) and
 * the code runner's host; and what follows from them alone: URL templates, bound credentials, the grants a URL needs.
 * A bad base or allow-list entry fails the reading. Judging a URL against all this is {@link UpstreamRules}' job.
 *
 * @param bases the operator's bases by setting name
 * @param allowed the allow-list entries, parsed
 * @param allowedText the allow-list entries as the operator wrote them
 * @param credentialUpstreams credential name to the upstream {@code AMCP_CREDENTIAL_<NAME>_UPSTREAM} binds it to
 * @param credentialValues credential names that have {@code AMCP_CREDENTIAL_<NAME>_VALUE} set
 * @param runnerHost the code runner's host, or {@code null} when none is configured or its URL does not parse
 * @param shared upper-case upstream names shared with every workspace, or {@code *}
 */
record OperatorUpstreams(Map<String, Base> bases, List<AllowedHost> allowed, List<String> allowedText,
                         Map<String, String> credentialUpstreams, Set<String> credentialValues, String runnerHost, Set<String> shared) {

    static final String RUNNER_URL = "CODE_RUNNER_URL";
    /** Settings under the base prefix that are not bases. */
    static final Set<String> NOT_BASES = Set.of(ALLOWED_HOSTS, SHARED, "AMCP_UPSTREAM_TIMEOUT_MS", "AMCP_UPSTREAM_MAX_BYTES",
            "AMCP_UPSTREAM_MCP_TIMEOUT_MS", "AMCP_UPSTREAM_REFRESH_MINUTES");

    /** The settings the upstream rule reads, from the application's configuration, by name. */
    static Map<String, String> settingsOf(Config config) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : StreamSupport.stream(config.getPropertyNames().spliterator(), false).sorted().toList()) {
            if (name.startsWith(BASE_PREFIX) || name.startsWith("AMCP_CREDENTIAL_") || name.equals(RUNNER_URL)) {
                config.getOptionalValue(name, String.class).ifPresent(v -> settings.put(name, v));
            }
        }
        return settings;
    }

    static OperatorUpstreams read(Map<String, String> settings) {
        Map<String, Base> readBases = new LinkedHashMap<>();
        Map<String, String> bindings = new LinkedHashMap<>();
        Set<String> values = new HashSet<>();
        settings.forEach((name, value) -> {
            if (value == null || value.isBlank()) {
                return;
            }
            if (name.startsWith(BASE_PREFIX) && !NOT_BASES.contains(name)) {
                readBases.put(name, Base.parse(name, value.strip()));
            }
            if (name.startsWith("AMCP_CREDENTIAL_") && name.endsWith("_VALUE")) {
                values.add(name.substring("AMCP_CREDENTIAL_".length(), name.length() - "_VALUE".length()).toUpperCase(Locale.ROOT));
            }
            if (name.startsWith("AMCP_CREDENTIAL_") && name.endsWith("_UPSTREAM")) {
                bindings.put(name.substring("AMCP_CREDENTIAL_".length(), name.length() - "_UPSTREAM".length()),
                        value.strip().toUpperCase(Locale.ROOT));
            }
        });
        List<AllowedHost> entries = new ArrayList<>();
        for (String entry : settings.getOrDefault(ALLOWED_HOSTS, "").split(",")) {
            if (!entry.isBlank()) {
                entries.add(AllowedHost.parse(entry.strip()));
            }
        }
        String runner = settings.get(RUNNER_URL);
        String host = null;
        if (runner != null && !runner.isBlank()) {
            try {
                host = URI.create(runner.strip()).getHost();
            } catch (IllegalArgumentException e) {
                host = null; // the runner connector reports a bad URL; the rule just has no runner host then
            }
        }
        return new OperatorUpstreams(Map.copyOf(readBases), List.copyOf(entries),
                Arrays.stream(settings.getOrDefault(ALLOWED_HOSTS, "").split(",")).map(String::strip).filter(e -> !e.isEmpty()).toList(),
                Map.copyOf(bindings), Set.copyOf(values), host == null ? null : unbracket(host),
                Arrays.stream(settings.getOrDefault(SHARED, "").split(",")).map(s -> s.strip().toUpperCase(Locale.ROOT))
                        .filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet()));
    }

    /** Whether every workspace may use this operator upstream ({@code <NAME>}) without a grant. */
    boolean isShared(String name) {
        return shared.contains("*") || shared.contains(name);
    }

    /** The upstream a credential goes to: the one its binding names, else its own name. */
    String upstreamOf(String credentialName) {
        return credentialUpstreams.getOrDefault(credentialName, credentialName);
    }

    /** Puts the operator's base into a URL template; a reference to a setting that is no configured base is refused. */
    String expandBases(String template) {
        Matcher m = UpstreamSyntax.SETTING.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Base base = bases.get(m.group(1));
            if (base == null) {
                throw refused("problem.upstream.baseMissing", "url uses $'{'{0}'}', which is not configured as an upstream base URL", m.group(1));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(base.text()));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The bases by setting name and their URLs, sorted. */
    Map<String, String> baseUrls() {
        Map<String, String> listed = new TreeMap<>();
        bases.forEach((setting, base) -> listed.put(setting, base.text()));
        return listed;
    }

    /** The operator upstreams ({@code <NAME>}, sorted) a workspace needs granted to reach this URL with this credential. */
    SortedSet<String> grantsNeeded(Target t, String credential) {
        SortedSet<String> needed = new TreeSet<>();
        bases.values().stream().filter(b -> b.covers(t)).forEach(b -> needed.add(UpstreamRules.operatorName(b.setting())));
        if (credential != null) {
            needed.add(upstreamOf(credential.toUpperCase(Locale.ROOT)));
        }
        return needed;
    }

    /** A URL written against the base that covers it (the longest wins); a URL under no base stays as it is. */
    String asTemplate(URI target) {
        Target t = Target.of(target);
        return bases.values().stream().filter(b -> b.covers(t))
                .max(Comparator.comparingInt(b -> b.target().path().length()))
                .map(b -> "${" + b.setting() + "}" + t.path().substring(b.target().path().length())
                        + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery()))
                .orElse(target.toString());
    }

    /** The credential bound to the base a URL template starts with; none for a URL under no base. */
    String boundCredential(String template) {
        Matcher m = UpstreamSyntax.SETTING.matcher(template);
        if (!m.lookingAt() || !bases.containsKey(m.group(1))) {
            return null;
        }
        String upstream = m.group(1).substring(BASE_PREFIX.length());
        return credentialUpstreams.entrySet().stream().filter(e -> e.getValue().equals(upstream)).map(Map.Entry::getKey)
                .sorted().findFirst().orElse(credentialValues.contains(upstream) ? upstream : null);
    }
}
