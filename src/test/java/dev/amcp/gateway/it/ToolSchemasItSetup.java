package dev.amcp.gateway.it;

import dev.amcp.gateway.demo.control.DemoSeeder;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.UUID;

/** Test-only set-up for {@code ToolSchemasIT}, which runs as a client: a fresh demo workspace and its admin's key. */
@Path("/it-schemas-setup")
@RequestScoped
public class ToolSchemasItSetup {

    @Inject
    DemoSeeder seeder;

    @POST
    @Path("tenant")
    @Produces("application/json")
    public String tenant() {
        var demo = seeder.seed("ts-" + UUID.randomUUID().toString().substring(0, 8));
        return Json.createObjectBuilder().add("key", demo.apiKey()).add("workspace", demo.workspace().getSlug()).build().toString();
    }
}
