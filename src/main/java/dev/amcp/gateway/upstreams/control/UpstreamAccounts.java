package dev.amcp.gateway.upstreams.control;

import dev.amcp.gateway.governance.control.RequiresCapability;
import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.OAuthRequests;
import dev.amcp.gateway.platform.control.SecretBox;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.platform.entity.NoSuchItemException;
import dev.amcp.gateway.upstreams.entity.AuthorizationServer;
import dev.amcp.gateway.upstreams.entity.PendingConnection;
import dev.amcp.gateway.upstreams.entity.PersonalAccounts;
import dev.amcp.gateway.upstreams.entity.UpstreamAccount;
import dev.amcp.gateway.upstreams.entity.UpstreamAccountClosed;
import dev.amcp.gateway.upstreams.entity.UpstreamOAuthClient;
import dev.amcp.gateway.upstreams.entity.UpstreamServer;
import dev.amcp.gateway.workspace.control.BearerAuthenticator;
import dev.amcp.gateway.workspace.entity.UserAccount;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityNotFoundException;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Per-person accounts at upstream MCP servers that act for each person (GitHub-, Atlassian- or Linear-style servers).
 * At registration the gateway finds the server's authorization server and becomes its client
 * ({@link UpstreamAuthorization}); each person then connects from the editor (authorization code with PKCE, the
 * {@code state} and verifier kept in their session), and their tokens are stored sealed ({@link SecretBox}) per person.
 * A call gets the caller's own access token ({@link #bearer}), refreshed shortly before it expires under a row lock,
 * so two nodes never both spend a rotating refresh token. The person, or an admin of the workspace, disconnects an
 * account; the server is asked to revoke its tokens where it offers that. No token ever leaves this class but in the
 * header the MCP upstream invoker sends to that server alone, and the client's own token to the gateway is never
 * sent upstream.
 */
@ApplicationScoped
public class UpstreamAccounts {

    /** The editor page where a person connects their accounts. */
    public static final String PAGE = "/admin/connections";
    /** Where the authorization server sends the browser back. */
    public static final String CALLBACK = PAGE + "/callback";
    /** A connection the browser started must finish within this long. */
    static final Duration MAX_PENDING_AGE = Duration.ofMinutes(10);
    /** An access token this close to its expiry is refreshed before it is sent. */
    static final Duration EARLY = Duration.ofSeconds(60);
    private static final Logger LOG = Logger.getLogger(UpstreamAccounts.class.getName());

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    UpstreamAuthorization authorization;

    @Inject
    UpstreamRules upstreams;

    @Inject
    UpstreamDirectory directory;

    @Inject
    SecretBox secrets;

    @Inject
    Settings settings;

    /** Tells the MCP upstream invoker to drop the person's open client, observed synchronously. */
    @Inject
    Event<UpstreamAccountClosed> closed;

    @Inject
    Event<AdminChange> changes;

    /** Why a call cannot go with the caller's own account, with the page where the person can connect it. */
    public static final class AccountNeeded extends Exception {
        private final String connectUrl;

        AccountNeeded(String message, String connectUrl) {
            super(message);
            this.connectUrl = connectUrl;
        }

        public String connectUrl() {
            return connectUrl;
        }
    }

    /** A person's account as people see it: no token, only who, since when and until when. */
    public record AccountView(long upstreamServerId, String upstreamServer, long userId, String username, Instant connectedAt,
                              Instant expiresAt, Instant refreshedAt, String scope) {
        public JsonObject toJson() {
            var b = JsonSupport.JSON.createObjectBuilder().add("upstreamServerId", upstreamServerId).add("upstreamServer", upstreamServer)
                    .add("userId", userId).add("username", username).add("connectedAt", connectedAt.toString());
            if (expiresAt != null) {
                b.add("expiresAt", expiresAt.toString());
            }
            if (refreshedAt != null) {
                b.add("refreshedAt", refreshedAt.toString());
            }
            if (scope != null) {
                b.add("scope", scope);
            }
            return b.build();
        }
    }

    /** The upstream rule for everything this server's sign-in reaches: the same rule as the server's own URL. */
    UpstreamAuthorization.Egress egress(UpstreamServer server) {
        if (server.getUpstream() != null) {
            return target -> upstreams.resolveInCeiling(target, directory.egressRules());
        }
        return upstreams::resolveForCall;
    }

    // ---- registration ----

    /**
     * Makes a newly registered server per-person: its authorization server found, and the gateway its client (the
     * admin's, or registered dynamically for {@code redirectUri}). Runs in the registration's transaction.
     */
    public void setUp(Caller caller, UpstreamServer server, URI resource, PersonalAccounts accounts, String redirectUri) {
        UpstreamAuthorization.Egress egress = egress(server);
        AuthorizationServer found = authorization.discover(resource, egress);
        String scope = accounts.scope() != null && !accounts.scope().isBlank() ? accounts.scope().strip() : found.scopes();
        String clientId = accounts.clientId() == null || accounts.clientId().isBlank() ? null : accounts.clientId().strip();
        if (clientId == null && accounts.clientSecret() != null && !accounts.clientSecret().isBlank()) {
            throw new InvalidInputException(Message.of("problem.upstreamServer.clientSecretAlone",
                    "clientSecret needs the clientId it belongs to"));
        }
        UpstreamAuthorization.Client client = clientId != null
                ? new UpstreamAuthorization.Client(clientId, blankToNull(accounts.clientSecret()))
                : authorization.register(found, redirectUri, scope, egress);
        UpstreamOAuthClient row = new UpstreamOAuthClient(server.getId(), found, scope, client.id(),
                clientId != null ? UpstreamOAuthClient.ADMIN : UpstreamOAuthClient.DYNAMIC, redirectUri);
        if (client.secret() != null) {
            SecretBox.Sealed sealed = secrets.seal(client.secret(), UpstreamOAuthClient.sealContext(server.getId()));
            row.setSecret(sealed.dataKeyId(), sealed.ciphertext());
        }
        em.persist(row);
        server.setPerPerson(true);
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.CREDENTIAL, server.getName() + " (" + server.getId() + ")", AdminChange.CREATE,
                null, JsonSupport.JSON.createObjectBuilder().add("kind", "oauth_person").add("issuer", found.issuer())
                        .add("registration", row.getRegistration()).build()));
    }

    /**
     * The gateway's redirect URI: under {@value BearerAuthenticator#PUBLIC_URL_SETTING} when the operator set it, else
     * under {@code base}, where the admin's request reached the gateway (scheme, host, port, context root).
     */
    public String redirectUri(String base) {
        return settings.get(BearerAuthenticator.PUBLIC_URL_SETTING).map(String::strip).filter(u -> !u.isEmpty()).orElse(base)
                .replaceAll("/+$", "") + CALLBACK;
    }

    /** The page where a person connects their account for this server. */
    public String connectUrl(UpstreamServer server) {
        UpstreamOAuthClient client = em.find(UpstreamOAuthClient.class, server.getId());
        String callback = client == null ? CALLBACK : client.getRedirectUri();
        return callback.substring(0, callback.length() - "/callback".length());
    }

    // ---- connecting ----

    /** A new connection for the caller: fresh state and PKCE verifier, and the authorization server's URL to go to. */
    @Transactional
    public PendingConnection start(Caller caller, long upstreamServerId) {
        UpstreamServer server = perPersonServer(caller, upstreamServerId);
        personOf(caller);
        UpstreamOAuthClient client = em.find(UpstreamOAuthClient.class, server.getId());
        String state = Hashes.random();
        String verifier = Hashes.random() + Hashes.random(); // 86 characters, within PKCE's 43 to 128
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", client.getClientId());
        query.put("redirect_uri", client.getRedirectUri());
        if (client.getScope() != null) {
            query.put("scope", client.getScope());
        }
        query.put("state", state);
        query.put("code_challenge", Hashes.codeChallenge(verifier));
        query.put("code_challenge_method", "S256");
        query.put("resource", client.getResource());
        String url = OAuthRequests.authorizationUrl(client.getAuthorizationEndpoint(), query);
        return new PendingConnection(state, verifier, server.getId(), client.getRedirectUri(), url, Instant.now());
    }

    /** Finishes a connection with the code the authorization server sent back; the caller's tokens are stored sealed. */
    @Transactional
    public AccountView finish(Caller caller, PendingConnection pending, String code) {
        if (Instant.now().isAfter(pending.startedAt().plus(MAX_PENDING_AGE)) || code == null || code.isBlank() || code.length() > 4096) {
            throw refused("problem.account.expired", "The connection took too long or did not start here. Please connect again.");
        }
        UpstreamServer server = perPersonServer(caller, pending.upstreamServerId());
        long userId = personOf(caller);
        UpstreamOAuthClient client = em.find(UpstreamOAuthClient.class, server.getId());
        UpstreamAuthorization.Tokens tokens;
        try {
            tokens = authorization.exchangeCode(client.server(), client(client), code, pending.codeVerifier(), pending.redirectUri(), egress(server));
        } catch (UpstreamAuthorization.TokenRefused e) {
            LOG.warning(() -> "Connecting an account at upstream server " + server.getId() + " failed: " + e.getMessage());
            throw refused("problem.account.refused", "The sign-in at {0} did not finish: {1}", server.getName(), e.getMessage());
        }
        UpstreamAccount account = find(server.getId(), userId).orElseGet(() -> new UpstreamAccount(server.getId(), userId));
        store(account, tokens, false);
        if (account.getId() == null) {
            em.persist(account);
        }
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.CREDENTIAL, accountSubject(server, caller.username()), AdminChange.CREATE, null,
                JsonSupport.JSON.createObjectBuilder().add("kind", "oauth_person").build()));
        em.flush();
        return view(server, account, caller.username());
    }

    // ---- calling ----

    /**
     * The caller's access token for this server, refreshed first when it is about to expire; {@link AccountNeeded}
     * when the caller has no account there (or it can no longer be refreshed), naming the page to connect it.
     */
    @Transactional
    public String bearer(Caller caller, UpstreamServer server) throws AccountNeeded {
        if (caller.userId() == null) {
            throw needed(server, connect -> "Tool calls to upstream MCP server '" + server.getName() + "' go with each person's own account, "
                    + "and this caller is no person of the workspace");
        }
        UpstreamAccount account = find(server.getId(), caller.userId()).orElseThrow(() -> needed(server, connect -> "Upstream MCP server '"
                + server.getName() + "' acts with your own account there, and you have not connected it yet. Connect it in the editor at "
                + connect + " and call again"));
        if (!expiring(account)) {
            return open(account).getString("access");
        }
        try {
            em.refresh(account, LockModeType.PESSIMISTIC_WRITE); // re-read under the row lock: one refresh across nodes
        } catch (EntityNotFoundException e) {
            throw needed(server, connect -> "Your account at upstream MCP server '" + server.getName() + "' was disconnected. Connect it again at "
                    + connect + " and call again");
        }
        if (!expiring(account)) {
            return open(account).getString("access"); // another node refreshed it while this one waited
        }
        String refresh = JsonSupport.string(open(account), "refresh", null);
        if (refresh == null) {
            forget(account);
            throw needed(server, connect -> "Your account at upstream MCP server '" + server.getName() + "' expired and cannot be renewed. "
                    + "Connect it again at " + connect + " and call again");
        }
        UpstreamOAuthClient client = em.find(UpstreamOAuthClient.class, server.getId());
        try {
            store(account, authorization.refresh(client.server(), client(client), refresh, egress(server)), true);
            return open(account).getString("access");
        } catch (UpstreamAuthorization.TokenRefused e) {
            if (!"invalid_grant".equals(e.error())) {
                throw new IllegalStateException("renewing your account's token failed: " + e.getMessage());
            }
            forget(account);
            throw needed(server, connect -> "Your account at upstream MCP server '" + server.getName() + "' is no longer valid there ("
                    + e.getMessage() + "). Connect it again at " + connect + " and call again");
        }
    }

    /** The refusal of a call without a usable account, naming the page (looked up only now: calls with one never need it). */
    private AccountNeeded needed(UpstreamServer server, Function<String, String> message) {
        String connect = connectUrl(server);
        return new AccountNeeded(message.apply(connect), connect);
    }

    private boolean expiring(UpstreamAccount account) {
        return account.getExpiresAt() != null && Instant.now().isAfter(account.getExpiresAt().minus(EARLY));
    }

    // ---- disconnecting ----

    /** The caller's accounts in their workspace, for the editor's page. */
    @Transactional
    public List<AccountView> mine(Caller caller) {
        if (caller.userId() == null) {
            return List.of();
        }
        List<AccountView> views = new ArrayList<>();
        for (UpstreamAccount account : em.createNamedQuery(UpstreamAccount.BY_USER, UpstreamAccount.class)
                .setParameter("userId", caller.userId()).getResultList()) {
            UpstreamServer server = em.find(UpstreamServer.class, account.getUpstreamServerId());
            if (server != null && server.getWorkspaceId() == caller.workspaceId()) {
                views.add(view(server, account, caller.username()));
            }
        }
        return views;
    }

    /** The per-person servers of the caller's workspace. */
    @Transactional
    public List<UpstreamServer> perPersonServers(Caller caller) {
        return em.createNamedQuery(UpstreamServer.BY_WORKSPACE, UpstreamServer.class).setParameter("workspaceId", caller.workspaceId())
                .getResultStream().filter(UpstreamServer::isPerPerson).toList();
    }

    /** Everyone's accounts at one server, for its admins. */
    @Transactional
    @RequiresCapability(Capability.ADMIN)
    public List<AccountView> accounts(Caller caller, long upstreamServerId) {
        UpstreamServer server = perPersonServer(caller, upstreamServerId);
        return em.createNamedQuery(UpstreamAccount.BY_SERVER, UpstreamAccount.class).setParameter("serverId", server.getId())
                .getResultStream().map(a -> view(server, a, username(a.getUserId()))).toList();
    }

    /** The caller disconnects their own account. */
    @Transactional
    public void disconnect(Caller caller, long upstreamServerId) {
        UpstreamServer server = perPersonServer(caller, upstreamServerId);
        remove(caller, server, personOf(caller), caller.username(), AdminChange.DELETE);
    }

    /** An admin of the workspace revokes a person's account. */
    @Transactional
    @RequiresCapability(Capability.ADMIN)
    public void revoke(Caller caller, long upstreamServerId, long userId) {
        UpstreamServer server = perPersonServer(caller, upstreamServerId);
        remove(caller, server, userId, username(userId), AdminChange.REVOKE);
    }

    private void remove(Caller caller, UpstreamServer server, long userId, String username, String action) {
        UpstreamAccount account = find(server.getId(), userId).orElseThrow(() -> new NoSuchItemException(Message.of("problem.account.missing",
                "{0} has no account connected at upstream server {1}", username, server.getName())));
        UpstreamOAuthClient client = em.find(UpstreamOAuthClient.class, server.getId());
        JsonObject tokens = open(account);
        String token = JsonSupport.string(tokens, "refresh", tokens.getString("access"));
        boolean revoked = authorization.revoke(client.server(), client(client), token, egress(server));
        forget(account);
        closed.fire(new UpstreamAccountClosed(server.getId(), userId));
        changes.fire(AdminChange.inWorkspace(caller, AdminChange.CREDENTIAL, accountSubject(server, username), action, null,
                JsonSupport.JSON.createObjectBuilder().add("kind", "oauth_person").add("revokedThere", revoked).build()));
    }

    private void forget(UpstreamAccount account) {
        em.remove(account);
        em.flush();
    }

    // ---- helpers ----

    private Optional<UpstreamAccount> find(long serverId, long userId) {
        return em.createNamedQuery(UpstreamAccount.BY_SERVER_AND_USER, UpstreamAccount.class).setParameter("serverId", serverId)
                .setParameter("userId", userId).getResultStream().findFirst();
    }

    /** A per-person server of the caller's workspace; any other id reads as missing. */
    private UpstreamServer perPersonServer(Caller caller, long id) {
        UpstreamServer server = em.find(UpstreamServer.class, id);
        if (server == null || server.getWorkspaceId() != caller.workspaceId() || !server.isPerPerson()
                || em.find(UpstreamOAuthClient.class, id) == null) {
            throw new NoSuchItemException(Message.of("problem.account.noServer", "No upstream server {0} with personal accounts in this workspace", id));
        }
        return server;
    }

    private static long personOf(Caller caller) {
        if (caller.userId() == null) {
            throw new InvalidInputException(Message.of("problem.account.noPerson", "Only a person of the workspace can connect an account"));
        }
        return caller.userId();
    }

    private String username(long userId) {
        UserAccount user = em.find(UserAccount.class, userId);
        return user == null ? "user " + userId : user.getUsername();
    }

    private void store(UpstreamAccount account, UpstreamAuthorization.Tokens tokens, boolean refreshed) {
        var json = JsonSupport.JSON.createObjectBuilder().add("access", tokens.access());
        if (tokens.refresh() != null) {
            json.add("refresh", tokens.refresh());
        }
        SecretBox.Sealed sealed = secrets.seal(json.build().toString(), UpstreamAccount.sealContext(account.getUpstreamServerId(), account.getUserId()));
        account.setTokens(sealed.dataKeyId(), sealed.ciphertext(), tokens.expiresAt(), tokens.scope(), refreshed);
    }

    private JsonObject open(UpstreamAccount account) {
        return JsonSupport.parseObject(secrets.open(account.getDataKeyId(), account.getCiphertext(),
                UpstreamAccount.sealContext(account.getUpstreamServerId(), account.getUserId())));
    }

    private UpstreamAuthorization.Client client(UpstreamOAuthClient client) {
        String secret = client.getSecretCiphertext() == null ? null
                : secrets.open(client.getDataKeyId(), client.getSecretCiphertext(), UpstreamOAuthClient.sealContext(client.getUpstreamServerId()));
        return new UpstreamAuthorization.Client(client.getClientId(), secret);
    }

    private static AccountView view(UpstreamServer server, UpstreamAccount account, String username) {
        return new AccountView(server.getId(), server.getName(), account.getUserId(), username, account.getConnectedAt(), account.getExpiresAt(),
                account.getRefreshedAt(), account.getScope());
    }

    private static String accountSubject(UpstreamServer server, String username) {
        return server.getName() + " (" + server.getId() + ") account of " + username;
    }


    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static InvalidInputException refused(String key, String english, Object... args) {
        return new InvalidInputException(Message.of(key, english, args));
    }
}
