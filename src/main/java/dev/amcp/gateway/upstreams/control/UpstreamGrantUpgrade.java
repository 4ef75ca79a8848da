package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.upstreams.entity.UpstreamGrant;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Keeps an upgraded install working when the operator's upstreams became grants: once (step {@value #STEP} of
 * {@code upgrade_steps}), every workspace is granted each operator base its saved HTTP tools and upstream MCP servers
 * already reach or send a credential of. After that step only the operator grants; revoking is never undone.
 */
@ApplicationScoped
public class UpstreamGrantUpgrade {

    static final String STEP = "upstream-grants";
    static final String GRANTED_BY = "upgrade";
    private static final Logger LOG = Logger.getLogger(UpstreamGrantUpgrade.class.getName());

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    UpstreamRules rules;

    @Inject
    UpstreamUsers callers;

    void upgradeOnStart(@Observes @Priority(Migrations.PRIORITY + 10) Startup startup) {
        try {
            int granted = grantWhatWasInUse();
            if (granted > 0) {
                LOG.info(() -> "Granted " + granted + " operator upstream(s) to the workspaces whose tools used them before grants existed");
            }
        } catch (RuntimeException e) {
            // another node ran the step at the same moment; its grants stand
            LOG.fine(() -> "The upstream grant step was not run here: " + e);
        }
    }

    /** Runs the step unless it ran before; answers how many grants it made. */
    @Transactional
    public int grantWhatWasInUse() {
        if (((Number) em.createNativeQuery("select count(*) from upgrade_steps where name = ?1").setParameter(1, STEP)
                .getSingleResult()).longValue() > 0) {
            return 0;
        }
        Map<Long, Set<String>> needed = new TreeMap<>();
        for (UpstreamUsers.DirectCall call : callers.directCalls()) {
            need(needed, call.workspaceId(), call.url(), call.credential());
        }
        for (UpstreamServer server : em.createQuery("select u from UpstreamServer u", UpstreamServer.class).getResultList()) {
            if (server.getUpstream() == null) {
                need(needed, server.getWorkspaceId(), server.getUrl(), server.getCredential());
            }
        }
        int granted = 0;
        for (var entry : needed.entrySet()) {
            Set<String> held = Set.copyOf(em.createNamedQuery(UpstreamGrant.OF_WORKSPACE, String.class)
                    .setParameter("workspaceId", entry.getKey()).getResultList());
            for (String name : entry.getValue()) {
                if (!held.contains(name)) {
                    em.persist(new UpstreamGrant(name, entry.getKey(), GRANTED_BY));
                    granted++;
                }
            }
        }
        em.createNativeQuery("insert into upgrade_steps (name, done_at) values (?1, ?2)").setParameter(1, STEP)
                .setParameter(2, Timestamp.from(Instant.now())).executeUpdate();
        return granted;
    }

    private void need(Map<Long, Set<String>> needed, long workspaceId, String urlTemplate, String credential) {
        if (urlTemplate == null) {
            return;
        }
        try {
            String url = rules.expandBases(urlTemplate);
            needed.computeIfAbsent(workspaceId, k -> new TreeSet<>()).addAll(rules.grantsNeeded(new URI(url), credential));
        } catch (RuntimeException | java.net.URISyntaxException e) {
            // a base no longer configured, or a URL the rules refuse: the tool fails as it did before; nothing to grant
        }
    }
}
