package dev.amcp.gateway.upstreams.control;

import static dev.amcp.gateway.upstreams.control.UpstreamAddresses.normalize;
import static dev.amcp.gateway.upstreams.control.UpstreamAddresses.parseLiteral;
import static dev.amcp.gateway.upstreams.control.UpstreamAddresses.refused;

import dev.amcp.gateway.platform.control.IdentityMemo;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.AllowedHost;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.Base;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.Block;
import dev.amcp.gateway.upstreams.control.UpstreamAddresses.Target;
import dev.amcp.gateway.upstreams.entity.CheckedUpstream;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * The one upstream rule every outbound call of the gateway passes (HTTP tools today; later OpenAPI imports by URL,
 * upstream MCP servers and identity providers call the same methods).
 * <ul>
 * <li>An upstream is a URL under one of the operator's {@code AMCP_UPSTREAM_<NAME>} bases (same scheme, host, port,
 * and a path at or below the base's path), or on a host listed in {@code AMCP_UPSTREAM_ALLOWED_HOSTS}
 * ({@code host}, {@code host:port}, an IP address, {@code [v6]:port} or a CIDR range; names match names, addresses
 * and ranges match addresses). Anything else is refused, with a message naming the setting.</li>
 * <li>Special addresses (loopback, link-local with the cloud metadata addresses, unspecified, multicast, and the code
 * runner's host) are refused unless named explicitly: an allow-list address or range that lies inside the special
 * block (so {@code 127.0.0.1:9080} unlocks that loopback port, {@code 0.0.0.0/0} unlocks nothing special; the runner's
 * host only by its exact address), or the address written in the operator's own base, for URLs under that base.
 * A host name never unlocks a special address: its answer comes from DNS, not from the operator.</li>
 * <li>{@link #checkAtSave(URI)} needs no DNS. {@link #resolveForCall(URI)} repeats the rule, resolves the host once,
 * checks every address and returns the address the call must connect to, so a DNS answer that changes between the
 * check and the connection (rebinding) and other spellings of an address ({@code 2130706433}, {@code 0x7f.1},
 * {@code [::ffff:127.0.0.1]}) are judged by the address they reach.</li>
 * <li>{@link #checkCredential(String, URI)}: a credential goes only to its own upstream; with the operator's grants,
 * {@link #checkOperatorUpstream}.</li>
 * </ul>
 * What the operator configured is read by {@link OperatorUpstreams}; URLs, bases, allow-list entries and addresses are
 * read and matched by {@link UpstreamAddresses}. This class stays the one entry point: callers ask it, never those.
 */
@ApplicationScoped
public class UpstreamRules {

    static final String BASE_PREFIX = UpstreamSyntax.SETTING_PREFIX;
    public static final String ALLOWED_HOSTS = "AMCP_UPSTREAM_ALLOWED_HOSTS";
    /** Operator upstreams every workspace may use without a grant: names, or {@code *} for all (a single-tenant install). */
    public static final String SHARED = "AMCP_UPSTREAM_SHARED";

    /** Looks up host names; tests replace it to play a name that resolves to loopback. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    @Inject
    Config config;

    /** The operator's settings the rule judges by. */
    private OperatorUpstreams operator;
    private Resolver resolver = InetAddress::getAllByName;

    public UpstreamRules() {}

    /** For tests: the rule over these settings and this resolver. */
    UpstreamRules(Map<String, String> settings, Resolver resolver) {
        load(settings);
        this.resolver = resolver;
    }

    @PostConstruct
    void init() {
        load(OperatorUpstreams.settingsOf(config));
    }

    /** Creating the bean reads the settings, so a bad base or allow-list entry stops the start, not every call. */
    void checkOnStart(@Observes Startup startup) {
        // nothing more to do
    }

    private void load(Map<String, String> settings) {
        this.operator = OperatorUpstreams.read(settings);
    }

    /** Whether every workspace may use this operator upstream ({@code <NAME>}) without a grant ({@value #SHARED}). */
    public boolean shared(String name) {
        return operator.isShared(name);
    }

    /** Whether a workspace holding {@code granted} may use the operator upstream {@code name}: granted, or shared. */
    public boolean usable(String name, java.util.Collection<String> granted) {
        return granted.contains(name) || shared(name);
    }

    // ---- the API ----

    /**
     * Puts the operator's base into a URL template: {@code ${AMCP_UPSTREAM_SHOP}/orders} becomes
     * {@code https://shop.internal/api/orders}. Refuses a reference to a setting that is not a configured base.
     */
    public String expandBases(String template) {
        return operator.expandBases(template);
    }

    /** The operator's bases ({@code AMCP_UPSTREAM_<NAME>} and their URLs), for listing beside a workspace's own. */
    public Map<String, String> operatorBases() {
        return operator.baseUrls();
    }

    /** The operator's upstream names: {@code <NAME>} of each base {@code AMCP_UPSTREAM_<NAME>}, as grants name them. */
    public Set<String> operatorNames() {
        return operator.bases().keySet().stream().map(UpstreamRules::operatorName).collect(java.util.stream.Collectors.toSet());
    }

    /** {@code <NAME>} of a base's setting {@code AMCP_UPSTREAM_<NAME>}, the name grants and {@value #SHARED} use. */
    public static String operatorName(String setting) {
        return setting.substring(BASE_PREFIX.length());
    }

    /** The entries of {@value #ALLOWED_HOSTS}, as the operator wrote them. */
    public List<String> allowedHosts() {
        return operator.allowedText();
    }

    /** The rule without DNS, for a URL being saved (a tool, an import source). */
    public void checkAtSave(URI target) {
        Target t = Target.of(target);
        requireDestination(t);
        if (t.literal() != null) {
            requireOrdinaryOrExplicit(t, t.literal());
        }
    }

    /**
     * The rule for a call about to be made: the save-time rule again (settings may have changed), then the host
     * resolved once and every address checked. The call must connect to {@link CheckedUpstream#address()}.
     */
    public CheckedUpstream resolveForCall(URI target) {
        Target t = Target.of(target);
        requireDestination(t);
        return resolved(target, t, address -> requireOrdinaryOrExplicit(t, address));
    }

    /**
     * The rule for a workspace upstream's base URL as an admin saves it, without DNS: inside the operator's egress
     * ceiling (the egress rules and {@value #ALLOWED_HOSTS}), and at a special address only where one of those names
     * it. A workspace's base never unlocks a special address by itself, as an operator's base does: its admin is not
     * the operator.
     */
    public void checkWorkspaceBase(URI base, List<String> egressRules) {
        Target t = Target.of(base);
        List<AllowedHost> ceiling = ceiling(egressRules);
        requireInCeiling(t, ceiling);
        if (t.literal() != null) {
            requireNamedIfSpecial(t, t.literal(), ceiling);
        }
    }

    /**
     * The rule for a call under a workspace upstream: the URL under its base, the base still inside the ceiling
     * (the operator may have narrowed it since), then DNS once and every address checked, as {@link #resolveForCall}.
     */
    public CheckedUpstream resolveForWorkspaceCall(URI target, URI base, List<String> egressRules) {
        Target t = Target.of(target);
        Target b = Target.of(base);
        if (!b.covers(t)) {
            throw refused("problem.upstream.outsideBase", "{0} is not under the upstream''s base {1}", t.origin() + t.path(), b.origin() + b.path());
        }
        return resolveInCeiling(target, egressRules);
    }

    /** A call a workspace's settings lead to (a token endpoint, say): inside the ceiling, then DNS and every address checked. */
    public CheckedUpstream resolveInCeiling(URI target, List<String> egressRules) {
        Target t = Target.of(target);
        List<AllowedHost> ceiling = ceiling(egressRules);
        requireInCeiling(t, ceiling);
        return resolved(target, t, address -> requireNamedIfSpecial(t, address, ceiling));
    }

    /** Parses one egress rule as an operator enters it; the message names what is wrong. */
    public static String checkEgressRule(String rule) {
        String text = rule == null ? "" : rule.strip().toLowerCase(Locale.ROOT);
        try {
            AllowedHost.parse(text);
            return text;
        } catch (IllegalStateException e) {
            throw refused("problem.egress.rule", "''{0}'' is not a host, *.domain, host:port, IP address, [IPv6]:port or CIDR range", rule);
        }
    }

    /** The rules as parsed, once per list the caller keeps (the directory's cached list is the same instance). */
    private final IdentityMemo<List<String>, List<AllowedHost>> ceilings = new IdentityMemo<>(16, UpstreamRules::parseCeiling);

    private List<AllowedHost> ceiling(List<String> egressRules) {
        return ceilings.apply(egressRules);
    }

    private static List<AllowedHost> parseCeiling(List<String> egressRules) {
        List<AllowedHost> rules = new ArrayList<>();
        for (String rule : egressRules) {
            try {
                rules.add(AllowedHost.parse(rule));
            } catch (IllegalStateException e) {
                // checked when saved; a rule that no longer parses allows nothing
            }
        }
        return List.copyOf(rules);
    }

    private void requireInCeiling(Target t, List<AllowedHost> ceiling) {
        if (operator.allowed().stream().anyMatch(e -> e.matches(t)) || ceiling.stream().anyMatch(e -> e.matches(t))) {
            return;
        }
        throw refused("problem.upstream.ceiling",
                "{0} is outside the operator''s egress ceiling: no egress rule (/api/egress-rules) and no entry of {1} allows {2}",
                t.origin(), ALLOWED_HOSTS, t.hostPort());
    }

    private void requireNamedIfSpecial(Target t, InetAddress raw, List<AllowedHost> ceiling) {
        requireUnlocked(t, raw, false, ceiling, ALLOWED_HOSTS + " or an egress rule");
    }

    private CheckedUpstream resolved(URI target, Target t, java.util.function.Consumer<InetAddress> check) {
        InetAddress[] addresses;
        if (t.literal() != null) {
            addresses = new InetAddress[] {t.literal()};
        } else {
            try {
                addresses = resolver.resolve(t.host());
            } catch (UnknownHostException e) {
                throw refused("problem.upstream.unknownHost", "the upstream host {0} cannot be resolved", t.host());
            }
        }
        if (addresses.length == 0) {
            throw refused("problem.upstream.unknownHost", "the upstream host {0} cannot be resolved", t.host());
        }
        for (InetAddress address : addresses) {
            check.accept(address);
        }
        return new CheckedUpstream(target, normalize(addresses[0]));
    }

    /**
     * A credential may only be sent under its own upstream's base: {@code AMCP_UPSTREAM_<NAME>} for credential
     * {@code <NAME>}, or the base that {@code AMCP_CREDENTIAL_<NAME>_UPSTREAM} names.
     */
    public void checkCredential(String credential, URI target) {
        if (credential == null) {
            return;
        }
        String name = credential.toUpperCase(Locale.ROOT);
        String binding = "AMCP_CREDENTIAL_" + name + "_UPSTREAM";
        String baseSetting = BASE_PREFIX + operator.upstreamOf(name);
        Base base = operator.bases().get(baseSetting);
        if (base == null) {
            throw refused("problem.upstream.credentialBase", "credential {0} may only be sent to $'{'{1}'}', which is not configured (or name another upstream with {2})",
                    name, baseSetting, binding);
        }
        if (!base.covers(Target.of(target))) {
            throw refused("problem.upstream.credential", "credential {0} may only be sent to URLs under $'{'{1}'}' (name another upstream with {2})",
                    name, baseSetting, binding);
        }
    }

    /**
     * The operator's rule for a workspace's URL outside its own upstreams: a credential goes only under its own base
     * ({@link #checkCredential}), and a workspace reaches a URL under an operator base {@code AMCP_UPSTREAM_<NAME>}, and
     * sends a credential bound to one, only when the operator granted {@code <NAME>} to it ({@code granted}) or shares
     * it. Every base that covers the URL counts, so a narrower base inside a granted one is not reached by a full URL
     * either.
     */
    public void checkOperatorUpstream(URI target, String credential, java.util.Collection<String> granted) {
        checkCredential(credential, target);
        Target t = Target.of(target);
        operator.grantsNeeded(t, credential).stream().filter(name -> !usable(name, granted)).findFirst()
                .ifPresent(name -> {
                    throw refused("problem.upstream.notGranted", "{0} is under the operator''s upstream $'{'{1}{2}'}', which the operator has not granted to this workspace (/api/upstream-grants)",
                            t.origin() + t.path(), BASE_PREFIX, name);
                });
    }

    /** The operator upstreams ({@code <NAME>}, sorted) a workspace needs granted to reach this URL with this credential. */
    public java.util.SortedSet<String> grantsNeeded(URI target, String credential) {
        return operator.grantsNeeded(Target.of(target), credential);
    }

    /**
     * A URL written against the operator's base that covers it, as a tool saves it: {@code https://shop.internal/api/orders}
     * becomes {@code ${AMCP_UPSTREAM_SHOP}/orders} (the longest base wins); a URL under no base stays as it is.
     */
    public String asTemplate(URI target) {
        return operator.asTemplate(target);
    }

    /**
     * The credential bound to the base a URL template starts with ({@code ${AMCP_UPSTREAM_<NAME>}...}): the one an
     * {@code AMCP_CREDENTIAL_<C>_UPSTREAM=<NAME>} setting names, else {@code <NAME>} itself when
     * {@code AMCP_CREDENTIAL_<NAME>_VALUE} is set; none for a URL under no base.
     */
    public String boundCredential(String template) {
        return operator.boundCredential(template);
    }

    /** Whether a path, or an argument put into one, walks it ({@code .} or {@code ..}, also encoded); see {@link UpstreamAddresses}. */
    public static boolean walksPath(String path) {
        return UpstreamAddresses.walksPath(path);
    }

    // ---- the rule ----

    private void requireDestination(Target t) {
        if (operator.bases().values().stream().anyMatch(b -> b.covers(t)) || operator.allowed().stream().anyMatch(e -> e.matches(t))) {
            return;
        }
        throw refused("problem.upstream.notAllowed",
                "{0} is not an allowed upstream: use a base URL from an AMCP_UPSTREAM_<NAME> setting, or ask the operator to add {1} to {2}",
                t.origin(), t.hostPort(), ALLOWED_HOSTS);
    }

    private void requireOrdinaryOrExplicit(Target t, InetAddress raw) {
        requireUnlocked(t, raw, true, List.of(), ALLOWED_HOSTS);
    }

    /**
     * A special address (a block of {@link Block#SPECIAL} or the runner's) passes only where an entry of the allow-list
     * or of {@code ceiling} names it, or, with {@code operatorBases}, where the operator's own base covering the URL is
     * written with that address; {@code namedBy} says in the refusal where such an entry goes.
     */
    private void requireUnlocked(Target t, InetAddress raw, boolean operatorBases, List<AllowedHost> ceiling, String namedBy) {
        InetAddress address = normalize(raw);
        List<Block> blocks = new ArrayList<>(runnerBlocks(address));
        blocks.addAll(Block.specialOf(address));
        if (blocks.isEmpty()
                || operatorBases && operator.bases().values().stream().anyMatch(b -> b.covers(t) && address.equals(b.literal()))
                || operator.allowed().stream().anyMatch(e -> e.unlocks(address, t.port(), blocks))
                || ceiling.stream().anyMatch(e -> e.unlocks(address, t.port(), blocks))) {
            return;
        }
        throw refused("problem.upstream.special",
                "{0} reaches {1}, {2}; the gateway calls it only when {3} lists that address (or a range inside its block) explicitly",
                t.hostPort(), address.getHostAddress(), String.join(" and ", blocks.stream().map(Block::kind).distinct().toList()), namedBy);
    }

    private List<Block> runnerBlocks(InetAddress address) {
        String runnerHost = operator.runnerHost();
        if (runnerHost == null) {
            return List.of();
        }
        try {
            InetAddress[] runner = parseLiteral(runnerHost) != null ? new InetAddress[] {parseLiteral(runnerHost)} : resolver.resolve(runnerHost);
            return Arrays.stream(runner).map(UpstreamAddresses::normalize).filter(address::equals)
                    .map(a -> new Block("the code runner's address", a.getAddress(), a.getAddress().length * 8)).toList();
        } catch (UnknownHostException e) {
            return List.of();
        }
    }

}
