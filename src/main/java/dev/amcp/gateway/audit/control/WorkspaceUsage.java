package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * One workspace's usage of what the license limits: its code tools ({@code maxCodeTools}) and its code runs this
 * calendar month ({@code monthlyCodeRuns}). Nothing of other workspaces.
 */
@ApplicationScoped
public class WorkspaceUsage {

    @Inject
    ToolService tools;

    @Inject
    CodeRunUsage runs;

    /** The counts the license page and {@code GET /api/license/usage} show. */
    public record Usage(long codeTools, long runsThisMonth) {}

    public Usage of(long workspaceId) {
        long codeTools = tools.tools(workspaceId).stream().filter(McpTool::isCodeTool).count();
        return new Usage(codeTools, runs.counted(workspaceId, CodeRunUsage.currentMonth()));
    }
}
