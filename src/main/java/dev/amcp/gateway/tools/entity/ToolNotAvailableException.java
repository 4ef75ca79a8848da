package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.platform.entity.ExpectedRefusal;

/**
 * The caller may not see this tool, or it does not exist: both read the same, so nobody learns what exists
 * outside their scope.
 */
public class ToolNotAvailableException extends RuntimeException implements ExpectedRefusal {

    private final String toolName;

    public ToolNotAvailableException(String toolName) {
        super("Tool '" + toolName + "' is not available");
        this.toolName = toolName;
    }

    public String toolName() {
        return toolName;
    }
}
