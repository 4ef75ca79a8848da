package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.ScheduledWork;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.logging.Logger;

/**
 * An operator takes this node out of its load balancer before stopping it ({@link Drain}): readiness goes DOWN, what
 * the node serves runs to its end, and the answer says how many requests are still in flight here. A rolling restart
 * drains a node, waits for the balancer to see it DOWN and for nothing to be in flight, then stops it.
 */
@ApplicationScoped
public class NodeDrain {

    private static final Logger LOG = Logger.getLogger(NodeDrain.class.getName());

    @Inject
    Drain drain;

    @RequiresOperator
    public JsonObject begin(Caller caller) {
        if (!drain.draining()) {
            LOG.info(() -> "Draining this node (" + ScheduledWork.NODE + ") for " + caller.username()
                    + ": readiness is DOWN from now on; requests in flight run to their end");
        }
        drain.begin();
        return status(caller);
    }

    /** Whether this node drains, since when, and the requests it serves besides the one asking. */
    @RequiresOperator
    public JsonObject status(Caller caller) {
        var answer = JsonSupport.JSON.createObjectBuilder().add("node", ScheduledWork.NODE).add("draining", drain.draining())
                .add("inFlight", Math.max(0, drain.inFlight() - 1));
        if (drain.draining()) {
            answer.add("since", drain.since().toString());
        }
        return answer.build();
    }
}
