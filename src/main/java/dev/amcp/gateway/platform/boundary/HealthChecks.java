package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.Migrations;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/**
 * MicroProfile Health: liveness is the JVM serving requests; readiness needs the database, writable and migrated, and
 * a node that is not draining.
 */
@ApplicationScoped
public class HealthChecks {

    @Inject
    Migrations migrations;

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    @Liveness
    @ApplicationScoped
    public static class Alive implements HealthCheck {
        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.up("gateway");
        }
    }

    /** DOWN once the node drains before it stops ({@link Drain}), so a load balancer sends it nothing new. */
    @Readiness
    @ApplicationScoped
    public static class Serving implements HealthCheck {
        @Inject
        Drain drain;

        @Override
        public HealthCheckResponse call() {
            var response = HealthCheckResponse.named("serving").withData("inFlight", drain.inFlight());
            return drain.draining() ? response.withData("drainingSince", drain.since().toString()).down().build() : response.up().build();
        }
    }

    @Readiness
    @ApplicationScoped
    public static class Database implements HealthCheck {
        @Inject
        HealthChecks checks;

        @Override
        public HealthCheckResponse call() {
            return checks.database();
        }
    }

    HealthCheckResponse database() {
        Migrations.Status status = migrations.status();
        var response = HealthCheckResponse.named("database")
                .withData("migrated", status.applied())
                .withData("detail", String.valueOf(status.detail()));
        if (status.schemaVersion() != null) {
            response.withData("schemaVersion", status.schemaVersion());
        }
        if (!status.applied()) {
            return response.down().build();
        }
        try (Connection connection = dataSource.getConnection()) {
            response.withData("database", status.database());
            if (!connection.isValid(2)) {
                return response.down().build();
            }
            if (Migrations.refusesWrites(connection)) {
                return response.withData("error", Migrations.READ_ONLY).down().build();
            }
            DatabaseOutage.reachable();
            return response.up().build();
        } catch (Exception e) {
            return response.withData("error", DatabaseOutage.noted(e) ? DatabaseOutage.MESSAGE : e.getClass().getSimpleName()).down().build();
        }
    }
}
