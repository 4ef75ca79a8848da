package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which failures count as the database being unreachable, and the outage they start and end. */
class DatabaseOutageTest {

    @AfterEach
    void endOutage() {
        DatabaseOutage.reachable();
    }

    @Test
    void connectionErrorsAndShutdownsAreTheDatabaseUnreachableWhereverTheyAreWrapped() {
        assertTrue(DatabaseOutage.causedBy(new SQLException("Connection refused", "08001")));
        assertTrue(DatabaseOutage.causedBy(new SQLException("I/O error", "08006")));
        assertTrue(DatabaseOutage.causedBy(new SQLException("terminating connection due to administrator command", "57P01")));
        assertTrue(DatabaseOutage.causedBy(new SQLTransientConnectionException("pool timed out")));
        assertTrue(DatabaseOutage.causedBy(new IllegalStateException("commit failed",
                new RuntimeException("wrapped", new SQLException("Connection refused", "08001")))));
    }

    @Test
    void aBadStatementOrAConstraintIsNot() {
        assertFalse(DatabaseOutage.causedBy(new SQLException("duplicate key", "23505")));
        assertFalse(DatabaseOutage.causedBy(new SQLException("syntax error", "42601")));
        assertFalse(DatabaseOutage.causedBy(new SQLException("no state")));
        assertFalse(DatabaseOutage.causedBy(new IllegalStateException("not the database")));
        assertFalse(DatabaseOutage.noted(new IllegalStateException("not the database")));
        assertFalse(DatabaseOutage.on(), "a failure that is not the database starts no outage");
    }

    @Test
    void anOutageRefusesRequestsUntilTheDatabaseAnswers() {
        assertFalse(DatabaseOutage.refusing(null), "no outage: nothing is refused (and nothing is asked)");
        assertTrue(DatabaseOutage.noted(new SQLException("Connection refused", "08001")));
        assertTrue(DatabaseOutage.on());
        assertTrue(DatabaseOutage.refusing(null), "refused at once: the database is asked again only a second later");
        DatabaseOutage.reachable();
        assertFalse(DatabaseOutage.on());
        assertFalse(DatabaseOutage.refusing(null));
    }
}
