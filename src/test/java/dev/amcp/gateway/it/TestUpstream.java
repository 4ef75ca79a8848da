package dev.amcp.gateway.it;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** A real HTTP upstream inside the test server, with the failure modes tools must survive. */
@Path("/it-upstream")
@RequestScoped
public class TestUpstream {

    @GET
    @Path("echo/{id}")
    @Produces("application/json")
    public String echo(@PathParam("id") String id, @QueryParam("q") String q, @HeaderParam("Authorization") String auth) {
        return jakarta.json.Json.createObjectBuilder().add("id", id).add("q", q == null ? "" : q)
                .add("auth", auth == null ? "" : auth).build().toString();
    }

    /**
     * Which credential headers reached the upstream, as SHA-256 hex of each value (never the value: the answer is a
     * tool result, which code runs record, and a test looks for the secret in the database afterwards).
     */
    @GET
    @Path("headers")
    @Produces("application/json")
    public String headers(@HeaderParam("Authorization") String authorization, @HeaderParam("X-Api-Key") String apiKey) {
        return jakarta.json.Json.createObjectBuilder().add("authorization", sha256(authorization)).add("xApiKey", sha256(apiKey))
                .build().toString();
    }

    /** Whom a bearer JWT the caller sent was issued to ({@code sub}, not verified: a test only looks at who it names). */
    @GET
    @Path("bearer")
    @Produces("application/json")
    public String bearer(@HeaderParam("Authorization") String authorization) {
        String sub = "";
        if (authorization != null && authorization.startsWith("Bearer ")) {
            String[] parts = authorization.substring(7).split("\\.");
            if (parts.length == 3) {
                String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8);
                sub = jakarta.json.Json.createReader(new java.io.StringReader(payload)).readObject().getString("sub", "");
            }
        }
        return jakarta.json.Json.createObjectBuilder().add("sub", sub).build().toString();
    }

    /** SHA-256 hex of a header value, "" for none. */
    public static String sha256(String value) {
        if (value == null) {
            return "";
        }
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The trace context the caller sent, so a test sees what reached the upstream. */
    @GET
    @Path("trace")
    @Produces("application/json")
    public String trace(@HeaderParam("traceparent") String traceparent, @HeaderParam("tracestate") String tracestate) {
        return jakarta.json.Json.createObjectBuilder().add("traceparent", traceparent == null ? "" : traceparent)
                .add("tracestate", tracestate == null ? "" : tracestate).build().toString();
    }

    @POST
    @Path("echo")
    @Produces("application/json")
    public String echoBody(String body) {
        return jakarta.json.Json.createObjectBuilder().add("received", jakarta.json.Json.createReader(new java.io.StringReader(body)).readObject()).build().toString();
    }

    /** Calls to {@code counted/{id}}, so a test can prove that something (a replay) called no tool. */
    static final java.util.concurrent.atomic.AtomicInteger COUNTED = new java.util.concurrent.atomic.AtomicInteger();

    @GET
    @Path("counted/{id}")
    @Produces("application/json")
    public String counted(@PathParam("id") String id) {
        return jakarta.json.Json.createObjectBuilder().add("id", id).add("call", COUNTED.incrementAndGet()).build().toString();
    }

    @GET
    @Path("counted-calls")
    @Produces("application/json")
    public String countedCalls() {
        return "{\"calls\":" + COUNTED.get() + "}";
    }

    @GET
    @Path("slow")
    @Produces("application/json")
    public String slow(@QueryParam("ms") long ms) throws InterruptedException {
        Thread.sleep(ms);
        return "{\"slept\":" + ms + "}";
    }

    @GET
    @Path("fail")
    public Response fail() {
        return Response.serverError().entity("database exploded").type("text/plain").build();
    }

    /** Ignores the Accept header like many real upstreams do. */
    @GET
    @Path("html")
    public Response html() {
        return Response.ok("<html><body>Not JSON</body></html>", "text/html").build();
    }

    @GET
    @Path("big")
    @Produces("application/json")
    public String big() {
        return "{\"data\":\"" + "x".repeat(200_000) + "\"}";
    }
}
