package dev.amcp.gateway.platform.boundary;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * {@link IllegalArgumentException} is how services reject bad input, with a message written for the caller; the
 * admin API answers it as a 400.
 */
@Provider
public class BadRequestMapper implements ExceptionMapper<IllegalArgumentException> {
    @Override
    public Response toResponse(IllegalArgumentException e) {
        return ErrorResponses.of(Response.Status.BAD_REQUEST, "bad_request", e.getMessage());
    }
}
