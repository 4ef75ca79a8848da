package dev.amcp.gateway.audit.control;

import dev.amcp.gateway.audit.entity.CodeRun;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How often code on a server called each tool, from the bridge traces of its recent runs, so the tools code uses
 * most are declared first where space is short. Counted at most every {@link #KEEP} per server: the order changes
 * slowly, and a stable order keeps tool listings cacheable.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.SUPPORTS)
public class ToolUsageRanking {

    static final int RECENT_RUNS = 500;
    static final Duration WINDOW = Duration.ofDays(30);
    static final Duration KEEP = Duration.ofMinutes(10);

    private record Counted(Map<String, Integer> calls, Instant until) {}

    private final Map<Long, Counted> counted = new ConcurrentHashMap<>();

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** Tool name to the number of {@code amcp.run} calls of it in the server's recent runs. */
    public Map<String, Integer> runCalls(long serverId) {
        Counted hit = counted.get(serverId);
        if (hit != null && Instant.now().isBefore(hit.until())) {
            return hit.calls();
        }
        Map<String, Integer> calls = new HashMap<>();
        em.createQuery("select r from CodeRun r where r.serverId = :server and r.startedAt > :since order by r.id desc",
                        CodeRun.class)
                .setParameter("server", serverId).setParameter("since", Instant.now().minus(WINDOW))
                .setMaxResults(RECENT_RUNS).getResultList()
                .forEach(run -> count(run.getBridgeTrace(), calls));
        counted.put(serverId, new Counted(Map.copyOf(calls), Instant.now().plus(KEEP)));
        return calls;
    }

    static void count(JsonObject trace, Map<String, Integer> calls) {
        if (trace == null || !(trace.get("calls") instanceof jakarta.json.JsonArray entries)) {
            return;
        }
        for (JsonValue entry : entries) {
            if (entry instanceof JsonObject call && call.get("tool") instanceof JsonString tool
                    && "run".equals(call.getString("op", ""))) {
                calls.merge(tool.getString(), 1, Integer::sum);
            }
        }
    }
}
