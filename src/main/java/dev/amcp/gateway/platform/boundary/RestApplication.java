package dev.amcp.gateway.platform.boundary;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/**
 * Jakarta REST root. Resources choose their own top-level paths: {@code /api} and {@code /demo-api}; {@code /mcp} is a
 * servlet of its own ({@code McpServlet}), and a longer servlet mapping wins over this one.
 */
@ApplicationPath("/")
@OpenAPIDefinition(info = @Info(title = "AMCP Gateway admin API", version = "1",
        description = "Workspaces, tools, API keys and code runs. Authenticate with 'Authorization: Bearer <api key>'."))
public class RestApplication extends Application {}
