package dev.amcp.gateway.mcp.boundary;

import static dev.amcp.gateway.mcp.boundary.McpReplies.error;
import static dev.amcp.gateway.mcp.boundary.McpReplies.refused;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.mcp.boundary.McpReplies.Reply;
import dev.amcp.gateway.mcp.control.McpProtocol.Exchange;
import dev.amcp.gateway.mcp.entity.McpError;
import dev.amcp.gateway.mcp.entity.ProtocolVersion;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.workspace.control.BearerAuthenticator;
import dev.amcp.gateway.workspace.control.ServerDirectory;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Who asks an MCP endpoint, and which one: the bearer check and the endpoint the path names, narrowed to the
 * caller's scope ({@code /mcp/{server}} pins the server, {@code /mcp} is the shared endpoint), and the same again on
 * every later use by a stream that outlives its request.
 */
@Dependent
class McpAdmission {

    @Inject
    BearerAuthenticator bearer;

    @Inject
    ServerDirectory servers;

    /**
     * Who asks, and where: the endpoint's slug ({@code null} for the shared one), the bearer credential and the endpoint
     * for this caller; or, instead, the refusal (401 or 403 from the bearer check, 404 for no such endpoint).
     */
    record Admitted(String slug, String authorization, String credential, Endpoint endpoint, Reply refusal) {
        static Admitted refused(Reply refusal) {
            return new Admitted(null, null, null, null, refusal);
        }
    }

    /** Where a request goes: the caller narrowed to the endpoint's scope, the endpoint's path and a human name. */
    record Endpoint(Caller caller, String path, String title) {}

    /** The bearer check and the endpoint, as every method that serves an endpoint runs them. */
    Admitted admit(HttpServletRequest request, Function<String, String> headers) {
        Optional<String> path = slugOf(request);
        String slug = path.filter(s -> !s.isEmpty()).orElse(null);
        String authorization = headers.apply("Authorization");
        BearerAuthenticator.Outcome outcome = bearer.authenticate(authorization, slug == null ? "/mcp" : "/mcp/" + slug);
        if (!(outcome instanceof BearerAuthenticator.Accepted accepted)) {
            return Admitted.refused(refused((BearerAuthenticator.Refused) outcome));
        }
        Optional<Endpoint> resolved = path.isEmpty() ? Optional.empty() : endpoint(slug, accepted.caller());
        if (resolved.isEmpty()) {
            return Admitted.refused(error(404, McpError.INVALID_REQUEST, "No MCP server '"
                    + Texts.printable(path.isEmpty() ? request.getPathInfo().substring(1) : slug, 64) + "' is available to this key"));
        }
        return new Admitted(slug, authorization, accepted.sessionCredential(), resolved.get(), null);
    }

    /**
     * The caller's exchange as of each call, authenticated and scoped again, for a stream that outlives its request;
     * empty once the key or the endpoint is gone.
     */
    Supplier<Optional<Exchange>> current(String authorization, String slug, String endpoint, ProtocolVersion version, String tag) {
        return () -> bearer.authenticate(authorization, endpoint) instanceof BearerAuthenticator.Accepted again
                ? endpoint(slug, again.caller()).map(e -> new Exchange(e.caller(), slug == null, e.path(), e.title(), version, tag))
                : Optional.empty();
    }

    /** The server slug of the path, {@code null} for the shared endpoint; a path below a server is no endpoint. */
    private static Optional<String> slugOf(HttpServletRequest request) {
        String info = request.getPathInfo();
        if (info == null || info.equals("/")) {
            return Optional.of("");
        }
        String slug = info.substring(1, info.endsWith("/") ? info.length() - 1 : info.length());
        return slug.isEmpty() || slug.indexOf('/') >= 0 ? Optional.empty() : Optional.of(slug);
    }

    /** The endpoint for this caller; empty for an unknown server and for one the caller's role may not use alike. */
    private Optional<Endpoint> endpoint(String slug, Caller caller) {
        if (slug == null) {
            return Optional.of(new Endpoint(caller.withScope(CallScope.sharedEndpoint()), "/mcp", "shared"));
        }
        long workspaceId = caller.workspaceId();
        return servers.bySlug(workspaceId, slug)
                .filter(s -> s.workspaceId() == workspaceId && caller.role().mayUseServer(s.id()))
                .map(s -> new Endpoint(caller.withScope(CallScope.server(s.id())), "/mcp/" + slug, s.name()));
    }
}
