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
