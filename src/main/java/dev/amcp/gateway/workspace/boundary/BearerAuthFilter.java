package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.workspace.control.ApiKeyAuthenticator;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/** Authenticates {@link Authenticated} resources by API key; a missing or bad key gets 401 with a challenge. */
@Provider
@Authenticated
@Priority(Priorities.AUTHENTICATION)
public class BearerAuthFilter implements ContainerRequestFilter {

    public static final String CHALLENGE = "Bearer realm=\"amcp\"";

    @Inject
    ApiKeyAuthenticator apiKeys;

    @Inject
    CurrentCaller currentCaller;

    @Override
    public void filter(ContainerRequestContext request) {
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        apiKeys.authenticate(header).ifPresentOrElse(currentCaller::set, () -> request.abortWith(unauthorized(header)));
    }

    public static Response unauthorized(String header) {
        boolean presented = ApiKeyService.bearerToken(header).isPresent();
        String message = presented ? "The API key is unknown, revoked or expired"
                : "Send an API key as 'Authorization: Bearer <key>'";
        return Response.status(Response.Status.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, presented ? CHALLENGE + ", error=\"invalid_token\"" : CHALLENGE)
                .type(MediaType.APPLICATION_JSON)
                .entity(JsonSupport.JSON.createObjectBuilder().add("error", "unauthorized").add("message", message).build().toString())
                .build();
    }
}
