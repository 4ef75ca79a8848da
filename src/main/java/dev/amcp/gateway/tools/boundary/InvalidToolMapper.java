package dev.amcp.gateway.tools.boundary;

import dev.amcp.gateway.platform.boundary.ErrorResponses;
import dev.amcp.gateway.tools.control.ToolService;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An invalid tool draft is a 400 listing the problem of each field. */
@Provider
public class InvalidToolMapper implements ExceptionMapper<ToolService.InvalidToolException> {
    @Override
    public Response toResponse(ToolService.InvalidToolException e) {
        return ErrorResponses.of(Response.Status.BAD_REQUEST, "invalid_tool", "The tool is not valid", e.englishProblems());
    }
}
