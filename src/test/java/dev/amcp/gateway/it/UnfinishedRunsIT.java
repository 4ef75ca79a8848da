package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.control.CodeRunSettings;
import dev.amcp.gateway.codemode.control.UnfinishedRuns;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A run whose node died leaves its row {@code RUNNING}: once it is past the wall time and the grace, a node closes it
 * as {@code ERROR} saying why, while a row within its wall time is left alone. The rows are written as a node that
 * died would have left them. MultiNodeIT kills a node in the middle of runs for the same rule across nodes.
 */
@ExtendWith(ArquillianExtension.class)
class UnfinishedRunsIT {

    @Deployment
    static WebArchive deployment() {
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    @Inject
    CodeRunSettings settings;

    @Inject
    UnfinishedRuns unfinished;

    long row(Instant startedAt) {
        var t = fixtures.tenant();
        return fixtures.inTx(em -> {
            CodeRun run = new CodeRun(UUID.randomUUID().toString(), t.workspace().getId(), true, "invoker", "admin", "0".repeat(64), startedAt);
            em.persist(run);
            em.flush();
            return run.getId();
        });
    }

    CodeRun find(long id) {
        return fixtures.inTx(em -> em.find(CodeRun.class, id));
    }

    @Test
    void aRowStillRunningPastItsWallTimeIsClosedAsAnErrorAndOneWithinItIsNot() throws Exception {
        Duration wall = Duration.ofMillis(settings.limits().timeoutMs());
        long overdue = row(Instant.now().minus(wall).minusSeconds(20)); // past the wall time and the 15 s grace
        long current = row(Instant.now());
        // This node's look, or any other deployment's on the same database (each looks every 15 s, one at a time).
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (!"ERROR".equals(find(overdue).getStatus()) && System.nanoTime() < deadline) {
            unfinished.close();
            Thread.sleep(500);
        }
        CodeRun closed = find(overdue);
        assertEquals("ERROR", closed.getStatus(), "the overdue row is closed");
        assertEquals("The run never ended: the gateway node running it stopped (or lost its database) before it recorded the run's end",
                closed.getError());
        assertNotNull(closed.getFinishedAt());
        CodeRun left = find(current);
        assertEquals("RUNNING", left.getStatus(), "a run within its wall time may still be running on its node");
        assertNull(left.getFinishedAt());
        fixtures.inTx(em -> em.createQuery("delete from CodeRun r where r.id in (:a, :b)").setParameter("a", overdue)
                .setParameter("b", current).executeUpdate());
    }
}
