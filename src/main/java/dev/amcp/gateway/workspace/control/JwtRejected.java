package dev.amcp.gateway.workspace.control;

/** Why a JWT was not accepted ({@link OidcProvider#verify}); the message is safe to show the token's holder. */
public class JwtRejected extends Exception {

    public enum Reason {
        /** Not a signed JWT, an algorithm that is not accepted, or claims that are not JSON. */
        MALFORMED,
        /** No key of the provider verifies the signature. */
        SIGNATURE,
        /** {@code iss} is not the provider. */
        ISSUER,
        /** {@code aud} does not name the expected audience. */
        AUDIENCE,
        /** Past {@code exp} (beyond the clock skew), or no {@code exp}. */
        EXPIRED,
        /** Before {@code nbf} (beyond the clock skew). */
        NOT_YET_VALID,
        /** The provider's discovery document or keys could not be fetched, or were refused. */
        PROVIDER_UNAVAILABLE
    }

    private final Reason reason;

    public JwtRejected(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public JwtRejected(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
