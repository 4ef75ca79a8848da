package dev.amcp.gateway.it;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test upstream for the OpenAPI import: it serves the published documents of src/test/resources/openapi (as a
 * company serves its API's description) and a small stub of the Swagger Petstore API they describe, which insists on
 * the credential the gateway binds to it.
 */
@Path("/it-petstore")
@ApplicationScoped
public class PetstoreUpstream {

    static final String CREDENTIAL = "Bearer petstore-secret-42";
    private final Map<Long, JsonObject> pets = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong(100);

    @GET
    @Path("openapi/{file}")
    public Response document(@PathParam("file") String file) throws IOException {
        if (!file.matches("[a-z0-9.-]+\\.(json|yaml)")) {
            return Response.status(404).build();
        }
        try (InputStream in = PetstoreUpstream.class.getResourceAsStream("/openapi/" + file)) {
            if (in == null) {
                return Response.status(404).build();
            }
            return Response.ok(in.readAllBytes(), file.endsWith(".json") ? "application/json" : "application/yaml").build();
        }
    }

    /** A document larger than the test deployment's AMCP_OPENAPI_MAX_BYTES. */
    @GET
    @Path("openapi-big.json")
    public Response big() {
        return Response.ok("{\"openapi\":\"3.0.3\",\"info\":{\"title\":\"big\",\"version\":\"1\",\"description\":\"" + "x".repeat(400_000) + "\"},\"paths\":{}}",
                "application/json").build();
    }

    @GET
    @Path("v2/pet/{petId}")
    public Response pet(@PathParam("petId") long id, @HeaderParam("Authorization") String auth) {
        if (!CREDENTIAL.equals(auth)) {
            return Response.status(401).entity("{\"message\":\"no credential\"}").type("application/json").build();
        }
        JsonObject pet = pets.getOrDefault(id, Json.createObjectBuilder().add("id", id).add("name", "doggie")
                .add("category", Json.createObjectBuilder().add("id", 1).add("name", "Dogs"))
                .add("photoUrls", Json.createArrayBuilder()).add("tags", Json.createArrayBuilder()).add("status", "available").build());
        return Response.ok(pet.toString(), "application/json").build();
    }

    @POST
    @Path("v2/pet")
    public Response addPet(String body, @HeaderParam("Authorization") String auth) {
        if (!CREDENTIAL.equals(auth)) {
            return Response.status(401).build();
        }
        JsonObject sent = Json.createReader(new StringReader(body)).readObject();
        long id = ids.incrementAndGet();
        JsonObject pet = Json.createObjectBuilder(sent).add("id", id).build();
        pets.put(id, pet);
        return Response.ok(pet.toString(), "application/json").build();
    }

    @GET
    @Path("v2/pet/findByStatus")
    public Response byStatus(@QueryParam("status") String status, @HeaderParam("Authorization") String auth) {
        if (!CREDENTIAL.equals(auth)) {
            return Response.status(401).build();
        }
        return Response.ok(Json.createArrayBuilder().add(Json.createObjectBuilder().add("id", 1).add("name", "doggie")
                .add("status", status == null ? "" : status)).build().toString(), "application/json").build();
    }
}
