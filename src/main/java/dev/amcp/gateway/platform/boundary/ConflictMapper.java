package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.entity.ConflictException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A slug or name that is already taken is a 409: the request was well formed, it clashes with what exists. */
@Provider
public class ConflictMapper implements ExceptionMapper<ConflictException> {
    @Override
    public Response toResponse(ConflictException e) {
        return ErrorResponses.of(Response.Status.CONFLICT, "conflict", e.getMessage());
    }
}
