package dev.amcp.gateway.workspace.boundary;

import dev.amcp.gateway.governance.entity.Caller;
import jakarta.enterprise.context.RequestScoped;

/** The authenticated caller of the current request, set by {@link BearerAuthFilter}. */
@RequestScoped
public class CurrentCaller {

    private Caller caller;

    public Caller get() {
        if (caller == null) {
            throw new IllegalStateException("No authenticated caller on this request");
        }
        return caller;
    }

    void set(Caller caller) {
        this.caller = caller;
    }
}
