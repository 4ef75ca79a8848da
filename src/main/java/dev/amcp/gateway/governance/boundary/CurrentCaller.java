package dev.amcp.gateway.governance.boundary;

import dev.amcp.gateway.governance.entity.Caller;
import jakarta.enterprise.context.RequestScoped;

/** The authenticated caller of the current request, set by the Bearer filter of {@code workspace} once per request. */
@RequestScoped
public class CurrentCaller {

    private Caller caller;

    public Caller get() {
        if (caller == null) {
            throw new IllegalStateException("No authenticated caller on this request");
        }
        return caller;
    }

    public void set(Caller caller) {
        this.caller = caller;
    }
}
