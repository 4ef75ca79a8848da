package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.ShortCache;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.upstreams.entity.EgressRule;
import dev.amcp.gateway.upstreams.entity.UpstreamCredential;
import dev.amcp.gateway.upstreams.entity.UpstreamGrant;
import dev.amcp.gateway.upstreams.entity.WorkspaceUpstream;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which upstream a tool of a workspace names, and the operator's egress ceiling, for the call path (every call of a
 * tool under a workspace upstream asks both). Answers are immutable and kept briefly ({@link ShortCache}); a change on
 * this node drops them at once ({@link AccessChanges}). A credential comes with its ciphertext only: it is opened per
 * call ({@link UpstreamCredentials}), and no cache holds a secret in clear.
 */
@ApplicationScoped
public class UpstreamDirectory {

    /** A workspace upstream as calls need it; {@code credential} is null when it has none. */
    public record UpstreamRef(long id, long workspaceId, String name, URI base, SealedCredential credential) {}

    /** A credential as stored: its kind, what is not secret, and the secret sealed. */
    public record SealedCredential(String kind, JsonObject params, long dataKeyId, String ciphertext, String fingerprint) {
        @Override
        public String toString() {
            return "SealedCredential[" + kind + ", " + fingerprint + "]";
        }
    }

    private record Name(long workspaceId, String name) {}

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Settings settings;

    private ShortCache<Name, UpstreamRef> byName;
    private ShortCache<Boolean, List<String>> ceiling;
    private ShortCache<Long, Set<String>> grants;

    @PostConstruct
    void configure() {
        byName = new ShortCache<>(settings, AccessChanges::generation);
        ceiling = new ShortCache<>(settings, AccessChanges::generation);
        grants = new ShortCache<>(settings, AccessChanges::generation);
    }

    /** The operator's upstreams ({@code <NAME>} of {@code AMCP_UPSTREAM_<NAME>}) granted to this workspace. */
    public Set<String> grants(long workspaceId) {
        return grants.get(workspaceId, id -> Optional.of(Set.copyOf(em.createNamedQuery(UpstreamGrant.OF_WORKSPACE, String.class)
                .setParameter("workspaceId", id).getResultList()))).orElse(Set.of());
    }

    /** The upstream {@code name} of this workspace; never another workspace's. */
    public Optional<UpstreamRef> upstream(long workspaceId, String name) {
        return byName.get(new Name(workspaceId, name), k -> em.createNamedQuery(WorkspaceUpstream.BY_NAME, WorkspaceUpstream.class)
                .setParameter("workspaceId", k.workspaceId()).setParameter("name", k.name()).getResultStream().findFirst().map(this::ref));
    }

    /** The upstream {@code name} of this workspace, or a 400 naming it for a request that names one it does not have. */
    public UpstreamRef named(long workspaceId, String name) {
        return upstream(workspaceId, name).orElseThrow(() -> new InvalidInputException(Message.of("problem.mapping.upstreamUnknown",
                "''{0}'' is not an upstream of this workspace (see /api/upstreams)", name)));
    }

    /** The egress rules (the operator's ceiling beside {@code AMCP_UPSTREAM_ALLOWED_HOSTS}). */
    public List<String> egressRules() {
        return ceiling.get(Boolean.TRUE, k -> Optional.of(em.createNamedQuery(EgressRule.ALL, EgressRule.class).getResultStream()
                .map(EgressRule::getRule).toList())).orElse(List.of());
    }

    private UpstreamRef ref(WorkspaceUpstream upstream) {
        UpstreamCredential c = em.find(UpstreamCredential.class, upstream.getId());
        SealedCredential sealed = c == null ? null
                : new SealedCredential(c.getKind(), c.getParams(), c.getDataKeyId(), c.getCiphertext(), c.getFingerprint());
        return new UpstreamRef(upstream.getId(), upstream.getWorkspaceId(), upstream.getName(), URI.create(upstream.getBaseUrl()), sealed);
    }
}
