package dev.amcp.gateway.governance.entity;

/** License editions. Paid editions treat {@code maxCodeTools} as a soft limit; the others treat it as hard. */
public enum Edition {
    COMMUNITY, TRIAL, PRO, ENTERPRISE;

    public boolean paid() {
        return this == PRO || this == ENTERPRISE;
    }

    public String wire() {
        return name().toLowerCase();
    }

    public static Edition fromWire(String value) {
        try {
            return valueOf(value.toUpperCase());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unknown edition '" + value + "'; expected community, trial, pro or enterprise");
        }
    }
}
