package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.platform.boundary.ErrorResponses;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A role or license gate's refusal is a 403 with the gate's message. */
@Provider
public class GateRefusedMapper implements ExceptionMapper<GateRefusedException> {
    @Override
    public Response toResponse(GateRefusedException e) {
        return ErrorResponses.of(Response.Status.FORBIDDEN, "forbidden", e.getMessage());
    }
}
