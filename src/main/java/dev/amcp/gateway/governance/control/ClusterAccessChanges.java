package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.AccessChanges;
import dev.amcp.gateway.platform.entity.ClusterEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Another node changed who may do what: this node's short caches of those answers drop what they hold at once. */
@ApplicationScoped
public class ClusterAccessChanges {

    void onClusterEvent(@Observes ClusterEvent event) {
        if (ClusterEvent.ACCESS.equals(event.kind())) {
            AccessChanges.changedElsewhere();
        }
    }
}
