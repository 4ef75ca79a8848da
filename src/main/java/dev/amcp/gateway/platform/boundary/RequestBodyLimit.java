package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The one body cap of the REST API ({@code AMCP_MAX_BODY_BYTES}, default 1 MiB): a declared length over it is
 * refused before the resource runs, and a body without one is read at most one byte past the cap. Either way the
 * answer is a 413 that names the limit. Resources marked {@link OwnBodyLimit} (MCP) apply their own cap instead.
 */
@Provider
public class RequestBodyLimit implements ContainerRequestFilter, ReaderInterceptor {

    public static final String SETTING = "AMCP_MAX_BODY_BYTES";
    public static final long DEFAULT_MAX = 1024 * 1024;
    private static final String EXEMPT = RequestBodyLimit.class.getName() + ".exempt";

    @Inject
    Settings settings;

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (exempt()) {
            request.setProperty(EXEMPT, Boolean.TRUE);
            return;
        }
        if (request.getLength() > max()) {
            throw tooLarge();
        }
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (context.getProperty(EXEMPT) == null) {
            long max = max();
            InputStream in = context.getInputStream();
            byte[] body = in == null ? new byte[0] : in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (body.length > max) {
                throw tooLarge();
            }
            context.setInputStream(new ByteArrayInputStream(body));
        }
        return context.proceed();
    }

    private boolean exempt() {
        return resource != null && resource.getResourceClass() != null
                && (resource.getResourceClass().isAnnotationPresent(OwnBodyLimit.class)
                || resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(OwnBodyLimit.class));
    }

    private long max() {
        return max(settings);
    }

    /** The cap in force; {@link FormBodyLimitFilter} applies the same one to servlet forms. */
    static long max(Settings settings) {
        return settings.getLong(SETTING, DEFAULT_MAX);
    }

    static String tooLargeMessage(long max) {
        return "The request body is larger than the " + max + "-byte limit (" + SETTING + ")";
    }

    private WebApplicationException tooLarge() {
        return new WebApplicationException(ErrorResponses.of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "too_large",
                tooLargeMessage(max())));
    }
}
