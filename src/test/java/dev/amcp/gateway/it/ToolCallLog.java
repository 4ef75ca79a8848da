package dev.amcp.gateway.it;

import dev.amcp.gateway.tools.entity.ToolCallCompleted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Test-only: remembers the tool calls the executor announces, so a test can see when a call really ended. */
@ApplicationScoped
public class ToolCallLog {

    private final List<ToolCallCompleted> calls = new CopyOnWriteArrayList<>();

    void record(@Observes ToolCallCompleted call) {
        calls.add(call);
    }

    /** The first completed call of this tool in this workspace, waiting up to {@code seconds} for it. */
    public Optional<ToolCallCompleted> await(long workspaceId, String toolName, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            var found = calls.stream().filter(c -> c.workspaceId() == workspaceId && c.toolName().equals(toolName)).findFirst();
            if (found.isPresent()) {
                return found;
            }
            Thread.sleep(50);
        }
        return Optional.empty();
    }
}
