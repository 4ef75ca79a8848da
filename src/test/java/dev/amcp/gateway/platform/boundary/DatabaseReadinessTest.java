package dev.amcp.gateway.platform.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.Migrations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness on a real H2 file: migrated and writable is UP; the same file opened read-only (as H2 does, silently, with
 * a file it may not write) is DOWN with the reason, though the schema is current and the connection valid.
 */
class DatabaseReadinessTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void responsesWithoutLiberty() {
        HealthCheckResponse.setResponseProvider(PlainResponse::new);
    }

    @Test
    void aWritableMigratedDatabaseIsReady() throws Exception {
        HealthCheckResponse response = readiness(h2(""));
        assertEquals(HealthCheckResponse.Status.UP, response.getStatus(), String.valueOf(response.getData()));
    }

    @Test
    void theSameDatabaseOpenReadOnlyIsNotReadyAndSaysWhy() throws Exception {
        readiness(h2("")); // migrated while writable, as the quick start left it
        assertTrue(Files.exists(dir.resolve("amcp.mv.db")));
        HealthCheckResponse response = readiness(h2(";ACCESS_MODE_DATA=r"));
        Map<String, Object> data = response.getData().orElseThrow();
        assertEquals(HealthCheckResponse.Status.DOWN, response.getStatus(), String.valueOf(data));
        assertEquals(true, data.get("migrated"), "the schema is current: only writing is refused");
        assertEquals(Migrations.READ_ONLY, data.get("error"));
    }

    DataSource h2(String mode) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:file:" + dir.resolve("amcp") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH" + mode);
        return dataSource;
    }

    static HealthCheckResponse readiness(DataSource dataSource) throws Exception {
        Migrations migrations = new Migrations();
        var field = Migrations.class.getDeclaredField("dataSource");
        field.setAccessible(true);
        field.set(migrations, dataSource);
        migrations.migrate();
        HealthChecks checks = new HealthChecks();
        checks.migrations = migrations;
        checks.dataSource = dataSource;
        return checks.database();
    }

    /** The smallest builder the API needs outside a server (Liberty brings its own). */
    static final class PlainResponse extends HealthCheckResponseBuilder {
        private String name;
        private boolean up;
        private final Map<String, Object> data = new LinkedHashMap<>();

        @Override public HealthCheckResponseBuilder name(String name) { this.name = name; return this; }
        @Override public HealthCheckResponseBuilder withData(String key, String value) { data.put(key, value); return this; }
        @Override public HealthCheckResponseBuilder withData(String key, long value) { data.put(key, value); return this; }
        @Override public HealthCheckResponseBuilder withData(String key, boolean value) { data.put(key, value); return this; }
        @Override public HealthCheckResponseBuilder up() { up = true; return this; }
        @Override public HealthCheckResponseBuilder down() { up = false; return this; }
        @Override public HealthCheckResponseBuilder status(boolean up) { this.up = up; return this; }

        @Override
        public HealthCheckResponse build() {
            return new HealthCheckResponse(name, up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN, Optional.of(data));
        }
    }
}
