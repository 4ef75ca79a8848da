package dev.amcp.gateway.sources.boundary;

import dev.amcp.gateway.governance.boundary.Authenticated;
import dev.amcp.gateway.governance.boundary.CurrentCaller;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.boundary.OwnBodyLimit;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.sources.control.OpenApiImports;
import dev.amcp.gateway.sources.entity.OpenApiImportRequest;
import dev.amcp.gateway.sources.entity.OpenApiSelection;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAPI import over REST: {@code POST /api/openapi-imports} previews (nothing is created), {@code POST
 * /api/openapi-imports/{id}/apply} creates or updates the accepted tools in one transaction. The preview body carries
 * a whole document, so it has its own cap, {@code AMCP_OPENAPI_MAX_BYTES}, answered with 413.
 */
@Path("/api/openapi-imports")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class OpenApiImportResource {

    @Inject
    CurrentCaller caller;

    @Inject
    OpenApiImports imports;

    /** {@code {"server", "url" | "document", "base"?, "credential"?, "prefix"?}} */
    @POST
    @OwnBodyLimit
    @Consumes(MediaType.APPLICATION_JSON)
    public Response preview(InputStream body) throws IOException {
        long max = imports.maxBytes() + 64 * 1024; // the JSON around the document
        byte[] bytes = body == null ? new byte[0] : body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
        if (bytes.length > max) {
            return ErrorResponses.of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "too_large",
                    "The request is larger than the " + imports.maxBytes() + "-byte document limit (" + OpenApiImports.MAX_BYTES_SETTING + ")");
        }
        JsonObject json = JsonSupport.parseObject(new String(bytes, StandardCharsets.UTF_8));
        OpenApiImportRequest request = new OpenApiImportRequest(JsonSupport.stringField(json, "server", null),
                JsonSupport.stringField(json, "url", null), JsonSupport.stringField(json, "document", null),
                JsonSupport.stringField(json, "base", null), JsonSupport.stringField(json, "credential", null),
                JsonSupport.stringField(json, "prefix", null), JsonSupport.stringField(json, "upstream", null));
        return Response.ok(imports.preview(caller.get(), request).toString()).build();
    }

    /**
     * {@code {"operations": [operationId | {"operationId", "readOnly"?}...], "remove": [toolName...]}}; no operations
     * means every added or changed one.
     */
    @POST
    @Path("{id}/apply")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response apply(@PathParam("id") long id, String body) {
        JsonObject json = body == null || body.isBlank() ? JsonValue.EMPTY_JSON_OBJECT : JsonSupport.parseObject(body);
        List<OpenApiSelection> selections = new ArrayList<>();
        for (JsonValue v : array(json, "operations")) {
            if (v instanceof JsonString s) {
                selections.add(new OpenApiSelection(s.getString(), null));
            } else if (v instanceof JsonObject o && o.get("operationId") instanceof JsonString s) {
                selections.add(new OpenApiSelection(s.getString(), JsonSupport.booleanFieldOrNull(o, "readOnly")));
            } else {
                throw new IllegalArgumentException("operations must list operationIds (strings) or {\"operationId\", \"readOnly\"} objects");
            }
        }
        List<String> remove = new ArrayList<>();
        for (JsonValue v : array(json, "remove")) {
            if (!(v instanceof JsonString s)) {
                throw new IllegalArgumentException("remove must list tool names (strings)");
            }
            remove.add(s.getString());
        }
        OpenApiImports.Applied applied = imports.apply(caller.get(), id, selections, remove);
        return Response.ok(JsonSupport.JSON.createObjectBuilder().add("created", strings(applied.created()))
                .add("updated", strings(applied.updated())).add("skipped", strings(applied.skipped()))
                .add("removed", strings(applied.removed())).build().toString()).build();
    }

    private static List<JsonValue> array(JsonObject json, String key) {
        JsonValue value = json.get(key);
        if (value == null || value == JsonValue.NULL) {
            return List.of();
        }
        if (value.getValueType() != JsonValue.ValueType.ARRAY) {
            throw new IllegalArgumentException(key + " must be an array, not " + JsonSupport.typeName(value));
        }
        return value.asJsonArray();
    }

    private static JsonArrayBuilder strings(List<String> values) {
        JsonArrayBuilder b = JsonSupport.JSON.createArrayBuilder();
        values.forEach(b::add);
        return b;
    }
}
