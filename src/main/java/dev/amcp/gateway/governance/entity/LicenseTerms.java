package dev.amcp.gateway.governance.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;
import java.time.Instant;

/**
 * What a verified license grants. Writes from code tools ({@code allowWrites}) need the Enterprise edition.
 *
 * @param maxCodeTools    code tools per workspace; hard on community and trial, soft (warning) on paid editions
 * @param monthlyCodeRuns code runs per workspace per calendar month (UTC); over it runs are refused
 */
public record LicenseTerms(Edition edition, String licensee, Instant issuedAt, Instant expiresAt, int maxCodeTools,
                           long monthlyCodeRuns) {

    /** What applies when no license is installed. */
    public static LicenseTerms community() {
        return new LicenseTerms(Edition.COMMUNITY, "Community", Instant.EPOCH, null, 3, 1_000);
    }

    public boolean allowsWrites() {
        return edition == Edition.ENTERPRISE;
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && expiresAt.isBefore(now);
    }

    public JsonObject features() {
        return JsonSupport.JSON.createObjectBuilder().add("maxCodeTools", maxCodeTools).add("monthlyCodeRuns", monthlyCodeRuns)
                .add("allowWrites", allowsWrites()).build();
    }
}
