package dev.amcp.gateway.demo.boundary;

import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * The demo API is unauthenticated and writable, so it exists only where the demo was asked for
 * ({@code AMCP_DEMO=true}); on any other start every {@code /demo-api} request answers 404, as if it were not there.
 */
@Provider
@DemoApi
public class DemoApiSwitch implements ContainerRequestFilter {

    public static final String SETTING = "AMCP_DEMO";

    @Inject
    Settings settings;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!settings.getBoolean(SETTING, false)) {
            request.abortWith(ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", "Not found"));
        }
    }
}
