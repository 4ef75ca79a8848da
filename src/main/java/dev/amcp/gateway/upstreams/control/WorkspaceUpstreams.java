package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.control.RequiresOperator;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.SecretBox;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.upstreams.entity.CredentialDraft;
import dev.amcp.gateway.upstreams.entity.EgressRule;
import dev.amcp.gateway.upstreams.entity.UpstreamCredential;
import dev.amcp.gateway.upstreams.entity.UpstreamDraft;
import dev.amcp.gateway.upstreams.entity.UpstreamGrant;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Workspace upstreams, their credentials and the operator's egress ceiling, as admins and operators change them. An
 * upstream's base must lie inside the ceiling ({@link UpstreamRules#checkWorkspaceBase}); its credential is sealed by
 * {@link SecretBox} for that upstream alone and never read back out of {@code tools/control}. Every change, and the use
 * of a credential (at most hourly per credential), is in the admin audit log, without the secret.
 */
@ApplicationScoped
@Transactional
public class WorkspaceUpstreams {

    static final int MAX_SECRET_CHARS = 4096;
    static final int MAX_DESCRIPTION_CHARS = 1000;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    UpstreamRules rules;

    @Inject
    UpstreamDirectory directory;

    @Inject
    UpstreamUsers callers;

    @Inject
    SecretBox secrets;

    @Inject
    WorkspaceService workspaces;

    @Inject
    Event<AdminChange> changes;

    @RequiresCapability(Capability.ADMIN)
    public List<WorkspaceUpstream> list(Caller caller) {
        return em.createNamedQuery(WorkspaceUpstream.BY_WORKSPACE, WorkspaceUpstream.class)
                .setParameter("workspaceId", caller.workspaceId()).getResultList();
    }

    @RequiresCapability(Capability.ADMIN)
    public WorkspaceUpstream find(Caller caller, long id) {
        WorkspaceUpstream upstream = em.find(WorkspaceUpstream.class, id);
        if (upstream == null || upstream.getWorkspaceId() != caller.workspaceId()) {
            throw new NoSuchItemException(Message.of("problem.upstream.missing", "No upstream {0} in this workspace", id));
        }
        return upstream;
    }

    /** The credentials of the workspace's upstreams, by upstream id, in one query (for listing them). */
    @RequiresCapability(Capability.ADMIN)
    public java.util.Map<Long, UpstreamCredential> credentials(Caller caller) {
        return em.createQuery("select c from UpstreamCredential c where c.upstreamId in "
                        + "(select u.id from WorkspaceUpstream u where u.workspaceId = :workspaceId)", UpstreamCredential.class)
                .setParameter("workspaceId", caller.workspaceId()).getResultStream()
                .collect(java.util.stream.Collectors.toMap(UpstreamCredential::getUpstreamId, c -> c));
    }

    /** The credential of an upstream of the caller's workspace, if it has one (kind, params, fingerprint, dates only leave). */
    @RequiresCapability(Capability.ADMIN)
    public UpstreamCredential credential(Caller caller, long upstreamId) {
        return em.find(UpstreamCredential.class, find(caller, upstreamId).getId());
    }

    @RequiresCapability(Capability.ADMIN)
    public WorkspaceUpstream create(Caller caller, UpstreamDraft draft) {
        String name = draft.name() == null ? "" : draft.name().strip();
        if (!UpstreamSyntax.UPSTREAM_NAME.matcher(name).matches()) {
            throw problem("problem.upstream.name", "name must be 1 to 64 lower-case letters, digits or ''-'', starting with a letter or digit");
        }
        if (!em.createNamedQuery(WorkspaceUpstream.BY_NAME, WorkspaceUpstream.class)
                .setParameter("workspaceId", caller.workspaceId()).setParameter("name", name).getResultList().isEmpty()) {
            throw new ConflictException(Message.of("problem.upstream.taken", "An upstream named ''{0}'' already exists in this workspace", name));
        }
        WorkspaceUpstream upstream = new WorkspaceUpstream(caller.workspaceId(), name, checkedBase(draft.baseUrl()),
                description(draft.description()), actor(caller));
        em.persist(upstream);
        em.flush();
        record(caller, AdminChange.UPSTREAM, upstream, AdminChange.CREATE, null, snapshot(upstream));
        return upstream;
    }

    /** Changes the base URL and description; the name stays (tools name it). */
    @RequiresCapability(Capability.ADMIN)
    public WorkspaceUpstream update(Caller caller, long id, UpstreamDraft draft) {
        WorkspaceUpstream upstream = find(caller, id);
        if (draft.name() != null && !draft.name().strip().equals(upstream.getName())) {
            throw problem("problem.upstream.rename", "an upstream keeps its name (tools name it); create a new one instead");
        }
        JsonObject before = snapshot(upstream);
        upstream.change(checkedBase(draft.baseUrl()), description(draft.description()));
        record(caller, AdminChange.UPSTREAM, upstream, AdminChange.UPDATE, before, snapshot(upstream));
        return upstream;
    }

    /** Deletes an upstream no tool names, with its credential. */
    @RequiresCapability(Capability.ADMIN)
    public void delete(Caller caller, long id) {
        WorkspaceUpstream upstream = find(caller, id);
        List<String> users = callers.toolsCalling(caller.workspaceId(), upstream.getName());
        if (!users.isEmpty()) {
            throw new ConflictException(Message.of("problem.upstream.inUse", "Upstream ''{0}'' is used by {1}; change or delete those tools first",
                    upstream.getName(), String.join(", ", users)));
        }
        JsonObject before = snapshot(upstream);
        UpstreamCredential credential = em.find(UpstreamCredential.class, upstream.getId());
        if (credential != null) {
            em.remove(credential);
        }
        em.remove(upstream);
        record(caller, AdminChange.UPSTREAM, upstream, AdminChange.DELETE, before, null);
    }

    /**
     * Sets (or replaces) an upstream's credential: {@code header} ({@code params.header}, default Authorization),
     * {@code basic} ({@code params.username}) or {@code oauth_client} ({@code params.tokenUrl}, {@code clientId},
     * {@code scope}); the secret is sealed at once. Refused (409, naming the setting) when the gateway has no master key.
     */
    @RequiresCapability(Capability.ADMIN)
    public UpstreamCredential setCredential(Caller caller, long upstreamId, CredentialDraft draft) {
        WorkspaceUpstream upstream = find(caller, upstreamId);
        String kind = draft.kind() == null ? "" : draft.kind().strip();
        if (!UpstreamCredential.KINDS.contains(kind)) {
            throw problem("problem.credential.kind", "kind is one of {0}", String.join(", ", UpstreamCredential.KINDS));
        }
        if (draft.secret() == null || draft.secret().isBlank() || draft.secret().length() > MAX_SECRET_CHARS
                || draft.secret().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw problem("problem.credential.secret", "the secret is required: 1 to {0} characters, no control characters", MAX_SECRET_CHARS);
        }
        JsonObject params = params(kind, draft.params() == null ? JsonObject.EMPTY_JSON_OBJECT : draft.params());
        UpstreamCredential credential = em.find(UpstreamCredential.class, upstream.getId());
        JsonObject before = credential == null ? null : describe(credential);
        SecretBox.Sealed sealed = secrets.seal(draft.secret(), UpstreamCredential.sealContext(upstream.getWorkspaceId(), upstream.getId(), kind));
        if (credential == null) {
            credential = new UpstreamCredential(upstream.getId());
            credential.set(kind, params, sealed.dataKeyId(), sealed.ciphertext(), sealed.fingerprint(), actor(caller));
            em.persist(credential);
        } else {
            credential.set(kind, params, sealed.dataKeyId(), sealed.ciphertext(), sealed.fingerprint(), actor(caller));
        }
        record(caller, AdminChange.CREDENTIAL, upstream, before == null ? AdminChange.CREATE : AdminChange.UPDATE, before, describe(credential));
        return credential;
    }

    @RequiresCapability(Capability.ADMIN)
    public void clearCredential(Caller caller, long upstreamId) {
        WorkspaceUpstream upstream = find(caller, upstreamId);
        UpstreamCredential credential = em.find(UpstreamCredential.class, upstream.getId());
        if (credential == null) {
            throw new NoSuchItemException(Message.of("problem.credential.missing", "Upstream ''{0}'' has no credential", upstream.getName()));
        }
        JsonObject before = describe(credential);
        em.remove(credential);
        record(caller, AdminChange.CREDENTIAL, upstream, AdminChange.DELETE, before, null);
    }

    /**
     * Notes that a call used an upstream's credential: one audit row per credential per hour at most (the first use
     * after the last row), in its own transaction, so a busy tool does not fill the log and a call's outcome never
     * depends on it.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void noteUse(Caller caller, long workspaceId, long upstreamId, String upstreamName, String fingerprint) {
        Instant now = Instant.now();
        int noted = em.createQuery("update UpstreamCredential c set c.lastUsedAt = :now where c.upstreamId = :id "
                        + "and (c.lastUsedAt is null or c.lastUsedAt < :since)")
                .setParameter("now", now).setParameter("since", now.minus(1, ChronoUnit.HOURS)).setParameter("id", upstreamId).executeUpdate();
        if (noted == 1) {
            changes.fire(AdminChange.by(caller, workspaceId, AdminChange.CREDENTIAL, upstreamName + " (" + upstreamId + ")", AdminChange.USE,
                    null, JsonSupport.JSON.createObjectBuilder().add("fingerprint", fingerprint).build()));
        }
    }

    // ---- the operator's egress ceiling ----

    @RequiresOperator
    public List<EgressRule> egressRules(Caller caller) {
        return em.createNamedQuery(EgressRule.ALL, EgressRule.class).getResultList();
    }

    @RequiresOperator
    public EgressRule addEgressRule(Caller caller, String rule, String note) {
        String text = UpstreamRules.checkEgressRule(rule);
        if (em.createNamedQuery(EgressRule.ALL, EgressRule.class).getResultStream().anyMatch(r -> r.getRule().equals(text))) {
            throw new ConflictException(Message.of("problem.egress.taken", "The egress rule ''{0}'' exists already", text));
        }
        EgressRule added = new EgressRule(text, description(note), actor(caller));
        em.persist(added);
        em.flush();
        changes.fire(AdminChange.by(caller, null, AdminChange.EGRESS_RULE, text, AdminChange.CREATE, null,
                JsonSupport.JSON.createObjectBuilder().add("rule", text).build()));
        return added;
    }

    /** Removes a rule; upstreams it let in are refused at their next call (the call path checks the ceiling each time). */
    @RequiresOperator
    public void removeEgressRule(Caller caller, long id) {
        EgressRule rule = em.find(EgressRule.class, id);
        if (rule == null) {
            throw new NoSuchItemException(Message.of("problem.egress.missing", "No egress rule {0}", id));
        }
        em.remove(rule);
        changes.fire(AdminChange.by(caller, null, AdminChange.EGRESS_RULE, rule.getRule(), AdminChange.DELETE,
                JsonSupport.JSON.createObjectBuilder().add("rule", rule.getRule()).build(), null));
    }

    // ---- the operator's grants of AMCP_UPSTREAM_<NAME> bases ----

    /** The operator's bases granted or shared to the caller's workspace (setting and URL); the others are not shown to it. */
    @RequiresCapability(Capability.ADMIN)
    public Map<String, String> grantedOperatorBases(Caller caller) {
        java.util.Set<String> granted = directory.grants(caller.workspaceId());
        Map<String, String> shown = new java.util.TreeMap<>();
        rules.operatorBases().forEach((setting, base) -> {
            if (rules.usable(UpstreamRules.operatorName(setting), granted)) {
                shown.put(setting, base);
            }
        });
        return shown;
    }

    /** A grant with the slug of its workspace, as the API and the editor show it. */
    public record GrantView(long id, String upstream, String workspace, String grantedBy, Instant grantedAt) {}

    @RequiresOperator
    public List<GrantView> grants(Caller caller) {
        return em.createNamedQuery(UpstreamGrant.ALL, UpstreamGrant.class).getResultStream().map(this::view).toList();
    }

    /** Grants the operator's base {@code AMCP_UPSTREAM_<upstream>}, and the credentials bound to it, to one workspace. */
    @RequiresOperator
    public GrantView grant(Caller caller, String upstream, String workspaceSlug) {
        String name = upstream == null ? "" : upstream.strip().toUpperCase(java.util.Locale.ROOT);
        if (name.startsWith(UpstreamSyntax.SETTING_PREFIX)) {
            name = name.substring(UpstreamSyntax.SETTING_PREFIX.length());
        }
        if (!rules.operatorNames().contains(name)) {
            throw problem("problem.grant.upstream", "upstream names an operator upstream, one of {0} (the settings {1}<NAME>)",
                    rules.operatorNames().stream().sorted().toList().toString(), UpstreamSyntax.SETTING_PREFIX);
        }
        Workspace workspace = workspaceSlug == null ? null : workspaces.findWorkspace(workspaceSlug.strip()).orElse(null);
        if (workspace == null) {
            throw problem("problem.grant.workspace", "workspace names a workspace by its slug; ''{0}'' is none", workspaceSlug == null ? "" : workspaceSlug);
        }
        String upstreamName = name;
        if (em.createNamedQuery(UpstreamGrant.OF_WORKSPACE, String.class).setParameter("workspaceId", workspace.getId())
                .getResultStream().anyMatch(upstreamName::equals)) {
            throw new ConflictException(Message.of("problem.grant.taken", "{0} is granted to {1} already", upstreamName, workspace.getSlug()));
        }
        UpstreamGrant granted = new UpstreamGrant(name, workspace.getId(), actor(caller));
        em.persist(granted);
        em.flush();
        changes.fire(AdminChange.by(caller, workspace.getId(), AdminChange.UPSTREAM_GRANT, name, AdminChange.CREATE, null,
                JsonSupport.JSON.createObjectBuilder().add("upstream", name).add("workspace", workspace.getSlug()).build()));
        return view(granted);
    }

    /**
     * The grant the operator gives by turning the demo on ({@code AMCP_DEMO}): the seeded demo workspace may use
     * {@code upstream}. Called only by the demo seeding, which runs at start with no caller, hence no gate.
     */
    public void grantToSeededWorkspace(long workspaceId, String upstream, String grantedBy) {
        em.persist(new UpstreamGrant(upstream, workspaceId, grantedBy));
    }

    /** Revokes a grant; the workspace's tools under that base are refused from their next call. */
    @RequiresOperator
    public void revokeGrant(Caller caller, long id) {
        UpstreamGrant grant = em.find(UpstreamGrant.class, id);
        if (grant == null) {
            throw new NoSuchItemException(Message.of("problem.grant.missing", "No upstream grant {0}", id));
        }
        GrantView view = view(grant);
        em.remove(grant);
        changes.fire(AdminChange.by(caller, grant.getWorkspaceId(), AdminChange.UPSTREAM_GRANT, view.upstream(), AdminChange.REVOKE,
                JsonSupport.JSON.createObjectBuilder().add("upstream", view.upstream()).add("workspace", view.workspace()).build(), null));
    }

    private GrantView view(UpstreamGrant g) {
        return new GrantView(g.getId(), g.getUpstream(), em.find(Workspace.class, g.getWorkspaceId()).getSlug(), g.getGrantedBy(), g.getGrantedAt());
    }

    // ---- checks and pieces ----

    /** A base URL as stored: http(s), a host, no user info, query or fragment, no trailing slash, inside the ceiling. */
    private String checkedBase(String baseUrl) {
        String text = baseUrl == null ? "" : baseUrl.strip();
        if (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw problem("problem.upstream.baseUrl", "baseUrl is not a URL: {0}", e.getReason());
        }
        if (text.isEmpty() || uri.getRawQuery() != null || uri.getRawFragment() != null || text.length() > 2000) {
            throw problem("problem.upstream.baseUrlShape", "baseUrl is an http:// or https:// URL with a host, at most 2000 characters, without query or fragment");
        }
        rules.checkWorkspaceBase(uri, directory.egressRules());
        return text;
    }

    /** What a kind keeps beside its secret; unknown keys are refused, so nothing secret is stored in clear by mistake. */
    private JsonObject params(String kind, JsonObject given) {
        List<String> allowed = UpstreamCredential.paramNames(kind);
        JsonObjectBuilder params = JsonSupport.JSON.createObjectBuilder();
        for (var entry : given.entrySet()) {
            if (!allowed.contains(entry.getKey()) || !(entry.getValue() instanceof JsonString value) || value.getString().length() > 2000
                    || value.getString().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw problem("problem.credential.params", "a {0} credential takes {1} (text without control characters) beside its secret",
                        kind, String.join(", ", allowed));
            }
            params.add(entry.getKey(), value.getString().strip());
        }
        JsonObject result = params.build();
        switch (kind) {
            case UpstreamCredential.HEADER -> {
                String header = result.getString("header", "Authorization");
                if (!header.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}") || UpstreamSyntax.reserved(header)) {
                    throw problem("problem.credential.header", "header is an HTTP header name the gateway does not set itself, not {0}", header);
                }
            }
            case UpstreamCredential.BASIC -> {
                if (result.getString("username", "").isEmpty() || result.getString("username").contains(":")) {
                    throw problem("problem.credential.username", "a basic credential needs a username without '':''");
                }
            }
            default -> {
                if (result.getString("clientId", "").isEmpty() || result.getString("tokenUrl", "").isEmpty()) {
                    throw problem("problem.credential.oauthClient", "an oauth_client credential needs tokenUrl and clientId");
                }
                try {
                    rules.checkWorkspaceBase(new URI(result.getString("tokenUrl")), directory.egressRules());
                } catch (URISyntaxException e) {
                    throw problem("problem.credential.tokenUrl", "tokenUrl is not a URL: {0}", e.getReason());
                }
            }
        }
        return result;
    }

    /** An upstream as the audit log and the API show it. */
    public static JsonObject snapshot(WorkspaceUpstream u) {
        JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("name", u.getName()).add("baseUrl", u.getBaseUrl());
        if (u.getDescription() != null) {
            b.add("description", u.getDescription());
        }
        return b.build();
    }

    /** A credential as the audit log and the API show it: never its secret. */
    public static JsonObject describe(UpstreamCredential c) {
        return JsonSupport.JSON.createObjectBuilder().add("kind", c.getKind())
                .add("params", c.getParams() == null ? JsonObject.EMPTY_JSON_OBJECT : c.getParams())
                .add("fingerprint", c.getFingerprint()).add("setBy", c.getSetBy()).add("setAt", c.getSetAt().toString()).build();
    }

    private void record(Caller caller, String kind, WorkspaceUpstream upstream, String action, JsonObject before, JsonObject after) {
        changes.fire(AdminChange.inWorkspace(caller, kind, upstream.getName() + " (" + upstream.getId() + ")", action, before, after));
    }

    private static String description(String text) {
        String d = text == null || text.isBlank() ? null : text.strip();
        if (d != null && d.length() > MAX_DESCRIPTION_CHARS) {
            throw problem("problem.upstream.description", "description is at most {0} characters", MAX_DESCRIPTION_CHARS);
        }
        return d;
    }

    private static String actor(Caller caller) {
        return Objects.requireNonNullElse(caller.username(), "?");
    }

    private static InvalidInputException problem(String key, String english, Object... args) {
        return new InvalidInputException(Message.of(key, english, args));
    }
}
