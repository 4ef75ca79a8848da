package dev.amcp.gateway.platform.control;

import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.interceptor.Interceptor;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the Flyway migrations of {@code db/migration} when the application starts, before any other start-up
 * observer touches the database. Flyway owns the schema; JPA never generates it.
 */
@ApplicationScoped
public class Migrations {

    /** Start-up observers that need the schema use a priority above this one. */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE;

    private static final Logger LOG = Logger.getLogger(Migrations.class.getName());

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    private volatile Status status = new Status(false, null, null, "not started");

    /** What the readiness check reports. */
    public record Status(boolean applied, String database, String schemaVersion, String detail) {}

    /**
     * Said at start and by readiness when the database takes reads only: H2 opens a file it may not write read-only
     * without a word, and every MCP request would then fail on its first write (the key's last use, the audit row).
     */
    public static final String READ_ONLY = "The database is open read-only, so the gateway cannot record calls and is not "
            + "ready; nothing was written. Make the database writable (for H2, the file and its directory) and restart.";

    void migrateOnStart(@Observes @Priority(PRIORITY) Startup startup) {
        migrate();
    }

    public synchronized Status migrate() {
        try {
            String database = databaseProduct(dataSource);
            Flyway flyway = Flyway.configure(Migrations.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations("classpath:db/migration")
                    .failOnMissingLocations(true)
                    .placeholders(placeholdersFor(database))
                    .load();
            MigrateResult result = flyway.migrate();
            String version = flyway.info().current() == null ? null : flyway.info().current().getVersion().getVersion();
            status = new Status(true, database, version, result.migrationsExecuted + " migration(s) applied now");
            LOG.info(() -> "Database " + database + " at schema version " + version + " (" + result.migrationsExecuted
                    + " migration(s) applied at this start)");
            if (refusesWrites(dataSource)) {
                LOG.severe(READ_ONLY);
            }
        } catch (RuntimeException | SQLException e) {
            status = new Status(false, null, null, e.getMessage());
            LOG.log(Level.SEVERE, "Database migration failed; the gateway is not ready", e);
        }
        return status;
    }

    public Status status() {
        return status;
    }

    /** Placeholders that let one set of migrations serve PostgreSQL and H2. */
    public static Map<String, String> placeholdersFor(String databaseProduct) {
        boolean postgres = databaseProduct.toLowerCase().contains("postgres");
        return Map.of("json", postgres ? "jsonb" : "text");
    }

    /** True when the database takes reads only (readiness asks each time: a database can become read-only later). */
    public static boolean refusesWrites(Connection connection) throws SQLException {
        return connection.isReadOnly();
    }

    static boolean refusesWrites(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return refusesWrites(connection);
        }
    }

    public static String databaseProduct(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        }
    }
}
