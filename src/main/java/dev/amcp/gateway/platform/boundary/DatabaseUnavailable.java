package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The answer to a request while the database is unreachable ({@link DatabaseOutage}): 503 with {@code Retry-After}
 * and the same message, in the form the endpoint speaks: a JSON-RPC error on {@code /mcp}, the REST API's error body
 * on {@code /api}, plain text elsewhere.
 */
final class DatabaseUnavailable {

    /** The JSON-RPC code of an internal error (the MCP layer's {@code McpError.INTERNAL_ERROR}; platform sees no feature). */
    static final int JSON_RPC_INTERNAL_ERROR = -32603;
    /** The REST API's error code for it. */
    static final String CODE = "database_unavailable";

    private DatabaseUnavailable() {}

    static void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String type;
        String body;
        if (path.equals("/mcp") || path.startsWith("/mcp/")) {
            type = "application/json";
            body = JsonSupport.JSON.createObjectBuilder().add("jsonrpc", "2.0").addNull("id").add("error", JsonSupport.JSON.createObjectBuilder()
                    .add("code", JSON_RPC_INTERNAL_ERROR).add("message", DatabaseOutage.MESSAGE)).build().toString();
        } else if (path.startsWith("/api/") || path.startsWith("/demo-api/")) {
            type = "application/json";
            body = ErrorResponses.body(CODE, DatabaseOutage.MESSAGE, Map.of()).toString();
        } else {
            type = "text/plain;charset=UTF-8";
            body = DatabaseOutage.MESSAGE + "\n";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", String.valueOf(DatabaseOutage.RETRY_AFTER_SECONDS));
        response.setContentType(type);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
