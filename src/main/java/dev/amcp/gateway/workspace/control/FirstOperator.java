package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.workspace.entity.UserAccount;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * Creates the instance's first operator, in one transaction under the {@code operator-bootstrap} row of
 * {@code instance_locks} ({@code select … for update}): nodes of a cluster starting together on one database wait
 * for each other there, so only the first creates an operator and the others find it.
 */
@ApplicationScoped
@Transactional
public class FirstOperator {

    static final String LOCK = "operator-bootstrap";

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    WorkspaceService workspaces;

    @Inject
    ApiKeyService apiKeys;

    /** The operator just created; the secrets are only ever printed, never stored in clear. */
    public record Created(String username, String password, String apiKey, boolean passwordGenerated, boolean keyGenerated) {}

    /**
     * Creates the operator unless one exists; empty when one exists. Without a password or key, random ones are made.
     * A bad username, password or key throws {@link IllegalArgumentException} and writes nothing.
     */
    public Optional<Created> createUnlessOneExists(String username, String password, String fixedKey) {
        em.createNativeQuery("select name from instance_locks where name = '" + LOCK + "' for update").getResultList();
        if (count() > 0) {
            return Optional.empty();
        }
        String secret = password != null ? password : randomSecret();
        UserAccount operator = workspaces.createOperator(username, secret);
        var key = fixedKey != null ? apiKeys.issue(operator.getId(), "bootstrap key", null, fixedKey)
                : apiKeys.issue(operator.getId(), "bootstrap key", null);
        return Optional.of(new Created(username, secret, key.plaintext(), password == null, fixedKey == null));
    }

    public long count() {
        return em.createNamedQuery(UserAccount.OPERATOR_COUNT, Long.class).getSingleResult();
    }

    static String randomSecret() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
