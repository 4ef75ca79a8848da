package dev.amcp.gateway.demo.boundary;

import dev.amcp.gateway.demo.control.DemoSeeder;
import dev.amcp.gateway.demo.control.DemoStore;
import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.function.Function;

/**
 * The demo upstream API. It is an ordinary HTTP API: the demo tools reach it over HTTP like any other upstream. It
 * is served only with {@code AMCP_DEMO=true} ({@link DemoApiSwitch}); bodies are capped like every REST body, and the
 * store caps notes and orders ({@link DemoStore}). Its OpenAPI document is {@code openapi.json}.
 */
@Path("/demo-api")
@RequestScoped
@DemoApi
@Produces(MediaType.APPLICATION_JSON)
public class DemoApiResource {

    @Inject
    DemoStore store;

    /** The API's own OpenAPI document, from which the demo workspace's tools are imported. */
    @GET
    @Path("openapi.json")
    public String openApi() {
        return DemoSeeder.resource(DemoSeeder.OPENAPI);
    }

    @GET
    @Path("customers")
    public String customers(@QueryParam("q") String query, @QueryParam("limit") @DefaultValue("20") int limit) {
        return list("customers", store.customers(query, clamp(limit)), DemoStore.Customer::json);
    }

    @GET
    @Path("customers/in-city/{city}")
    public String customersInCity(@PathParam("city") String city) {
        return list("customers", store.customersIn(city, clamp(500)), DemoStore.Customer::json);
    }

    @GET
    @Path("customers/{id}")
    public Response customer(@PathParam("id") int id) {
        return store.customer(id).map(c -> ok(c.json())).orElseGet(() -> notFound("customer " + id));
    }

    @GET
    @Path("orders")
    public String orders(@QueryParam("customerId") Integer customerId, @QueryParam("status") String status,
                         @QueryParam("limit") @DefaultValue("50") int limit) {
        return list("orders", store.orders(customerId, status, clamp(limit)), DemoStore.Order::json);
    }

    @GET
    @Path("orders/{id}")
    public Response order(@PathParam("id") int id) {
        return store.order(id).map(o -> ok(o.json())).orElseGet(() -> notFound("order " + id));
    }

    @POST
    @Path("orders")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response createOrder(JsonObject body) {
        try {
            var order = store.createOrder(body.getInt("customerId"), body.getString("sku"), body.getInt("quantity", 1),
                    body.getString("note", null));
            return Response.status(Response.Status.CREATED).entity(order.json().toString()).build();
        } catch (DemoStore.FullException e) {
            return error(Response.Status.CONFLICT, e.getMessage());
        } catch (RuntimeException e) {
            return badRequest(e.getMessage());
        }
    }

    @PATCH
    @Path("orders/{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response updateOrder(@PathParam("id") int id, JsonObject body) {
        try {
            return store.updateStatus(id, body.getString("status", "")).map(o -> ok(o.json()))
                    .orElseGet(() -> notFound("order " + id));
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
    }

    @GET
    @Path("inventory")
    public String inventory(@QueryParam("lowStock") @DefaultValue("false") boolean lowStock) {
        return list("products", store.inventory(lowStock), DemoStore.Product::json);
    }

    @POST
    @Path("inventory/{sku}/adjust")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response adjust(@PathParam("sku") String sku, JsonObject body) {
        try {
            return store.adjustStock(sku, body.getInt("delta")).map(p -> ok(p.json())).orElseGet(() -> notFound("product " + sku));
        } catch (RuntimeException e) {
            return badRequest(e.getMessage());
        }
    }

    private static <T> String list(String key, List<T> items, Function<T, JsonObject> json) {
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        items.forEach(i -> array.add(json.apply(i)));
        return JsonSupport.JSON.createObjectBuilder().add(key, array).add("count", items.size()).build().toString();
    }

    private static int clamp(int limit) {
        return Math.max(1, Math.min(limit, 500));
    }

    private static Response ok(JsonValue json) {
        return Response.ok(json.toString()).build();
    }

    private static Response notFound(String what) {
        return error(Response.Status.NOT_FOUND, "No " + what);
    }

    private static Response badRequest(String message) {
        return error(Response.Status.BAD_REQUEST, message);
    }

    private static Response error(Response.Status status, String message) {
        return Response.status(status)
                .entity(JsonSupport.JSON.createObjectBuilder().add("error", String.valueOf(message)).build().toString()).build();
    }
}
