package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** The JSON error body of the admin REST API: {@code {"error": code, "message": text, "fields": {...}}}. */
public final class ErrorResponses {

    private ErrorResponses() {}

    public static Response of(Response.Status status, String code, String message) {
        return of(status, code, message, Map.of());
    }

    public static Response of(Response.Status status, String code, String message, Map<String, String> fields) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body(code, message, fields).toString()).build();
    }

    /** The body alone, for an answer written outside JAX-RS (a filter). */
    static JsonObject body(String code, String message, Map<String, String> fields) {
        var body = JsonSupport.JSON.createObjectBuilder().add("error", code).add("message", message);
        if (!fields.isEmpty()) {
            var f = JsonSupport.JSON.createObjectBuilder();
            fields.forEach(f::add);
            body.add("fields", f);
        }
        return body.build();
    }
}
