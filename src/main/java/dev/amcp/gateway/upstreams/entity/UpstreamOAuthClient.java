package dev.amcp.gateway.upstreams.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * The gateway as an OAuth client of one per-person upstream MCP server: the protected resource, its authorization
 * server's endpoints (found by RFC 9728 and RFC 8414 discovery at registration), and the client id, registered
 * dynamically (RFC 7591) or given by the admin. A client secret is kept only as ciphertext under a data key.
 */
@Entity
@Table(name = "upstream_oauth_clients")
public class UpstreamOAuthClient {

    public static final String DYNAMIC = "dynamic";
    public static final String ADMIN = "admin";

    @Id
    @Column(name = "upstream_server_id")
    private Long upstreamServerId;

    @Column(nullable = false)
    private String resource;

    @Column(nullable = false)
    private String issuer;

    @Column(name = "authorization_endpoint", nullable = false)
    private String authorizationEndpoint;

    @Column(name = "token_endpoint", nullable = false)
    private String tokenEndpoint;

    @Column(name = "revocation_endpoint")
    private String revocationEndpoint;

    private String scope;

    @Column(name = "client_id", nullable = false)
    private String clientId;

    @Column(name = "secret_ciphertext")
    private String secretCiphertext;

    @Column(name = "data_key_id")
    private Long dataKeyId;

    @Column(nullable = false)
    private String registration;

    @Column(name = "redirect_uri", nullable = false)
    private String redirectUri;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected UpstreamOAuthClient() {}

    public UpstreamOAuthClient(long upstreamServerId, AuthorizationServer server, String scope, String clientId, String registration,
                               String redirectUri) {
        this.upstreamServerId = upstreamServerId;
        this.resource = server.resource();
        this.issuer = server.issuer();
        this.authorizationEndpoint = server.authorizationEndpoint();
        this.tokenEndpoint = server.tokenEndpoint();
        this.revocationEndpoint = server.revocationEndpoint();
        this.scope = scope;
        this.clientId = clientId;
        this.registration = registration;
        this.redirectUri = redirectUri;
        this.createdAt = Instant.now();
    }

    /** The context a client secret is sealed for, so its ciphertext opens for no other server. */
    public static String sealContext(long upstreamServerId) {
        return "upstream oauth client|upstream server " + upstreamServerId;
    }

    public void setSecret(long dataKeyId, String ciphertext) {
        this.dataKeyId = dataKeyId;
        this.secretCiphertext = ciphertext;
    }

    public Long getUpstreamServerId() { return upstreamServerId; }
    public String getResource() { return resource; }
    public String getIssuer() { return issuer; }
    public String getAuthorizationEndpoint() { return authorizationEndpoint; }
    public String getTokenEndpoint() { return tokenEndpoint; }
    public String getRevocationEndpoint() { return revocationEndpoint; }
    public String getScope() { return scope; }
    public String getClientId() { return clientId; }
    public String getSecretCiphertext() { return secretCiphertext; }
    public Long getDataKeyId() { return dataKeyId; }
    public String getRegistration() { return registration; }
    public String getRedirectUri() { return redirectUri; }
    public Instant getCreatedAt() { return createdAt; }

    /** The server as discovery found it. */
    public AuthorizationServer server() {
        return new AuthorizationServer(resource, issuer, authorizationEndpoint, tokenEndpoint, null, revocationEndpoint, scope);
    }
}
