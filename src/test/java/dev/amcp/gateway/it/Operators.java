package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.entity.Caller;

/**
 * The instance operator as the integration tests use it. In-container tests install and remove licenses as
 * {@link #CALLER} (the operator gate looks at the caller, not at a database row); REST tests use the operator that
 * the bootstrap creates from {@link #USERNAME} and {@link #API_KEY} in deployments that set them.
 */
public final class Operators {

    public static final Caller CALLER = Caller.operator(null, null, "it-operator");
    public static final String USERNAME = "it-operator";
    public static final String PASSWORD = "it-operator-password";
    public static final String API_KEY = "amcp_it-operator-key-0123456789abcdefghij";

    private Operators() {}
}
