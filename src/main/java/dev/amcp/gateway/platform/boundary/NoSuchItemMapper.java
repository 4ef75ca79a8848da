package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.entity.NoSuchItemException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An id that names nothing is a 404, not a 400: the request was well formed, its target does not exist. */
@Provider
public class NoSuchItemMapper implements ExceptionMapper<NoSuchItemException> {
    @Override
    public Response toResponse(NoSuchItemException e) {
        return ErrorResponses.of(Response.Status.NOT_FOUND, "not_found", e.getMessage());
    }
}
