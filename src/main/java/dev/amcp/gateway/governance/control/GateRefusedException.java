package dev.amcp.gateway.governance.control;

/** A role or license gate refused an action. The message is written for the person who tried it. */
public class GateRefusedException extends RuntimeException {
    public GateRefusedException(String message) {
        super(message);
    }
}
