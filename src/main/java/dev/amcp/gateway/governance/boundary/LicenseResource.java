package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The license in force ({@code GET}) and installing a signed license document ({@code PUT}, admins only). */
@Path("/api/license")
@RequestScoped
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class LicenseResource {

    @Inject
    CurrentCaller caller;

    @Inject
    LicenseService licenses;

    @GET
    public String current() {
        return json(licenses.current()).toString();
    }

    @PUT
    @Consumes({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    public String install(String document) {
        return json(licenses.install(caller.get(), document)).toString();
    }

    @jakarta.ws.rs.DELETE
    public String uninstall() {
        return json(licenses.uninstall(caller.get())).toString();
    }

    static JsonObject json(LicenseTerms terms) {
        return LicenseService.snapshot(terms);
    }
}
