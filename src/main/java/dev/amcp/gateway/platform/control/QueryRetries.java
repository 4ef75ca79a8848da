package dev.amcp.gateway.platform.control;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How often EclipseLink asks the database again after a read fails at the connection: once, at once. Its defaults
 * (three more tries, 5 s apart) held each request 10 s when the database stopped, where the client is better told
 * at once ({@link DatabaseOutage}). One try more still mends the usual case, a pooled connection the database closed.
 * EclipseLink has no persistence-unit property for it, and a drop-in WAR does not see its API, so the session's
 * login is set by name; should that fail, the start logs it and the defaults stay.
 */
@ApplicationScoped
public class QueryRetries {

    static final int ATTEMPTS = 1;
    static final int DELAY_MS = 0;
    private static final Logger LOG = Logger.getLogger(QueryRetries.class.getName());

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    void setOnStart(@Observes @Priority(Migrations.PRIORITY + 1) Startup startup) {
        try {
            Object delegate = em.getDelegate();
            Object session = delegate.getClass().getMethod("getServerSession").invoke(delegate);
            Object login = session.getClass().getMethod("getLogin").invoke(session);
            login.getClass().getMethod("setQueryRetryAttemptCount", int.class).invoke(login, ATTEMPTS);
            login.getClass().getMethod("setDelayBetweenConnectionAttempts", int.class).invoke(login, DELAY_MS);
            LOG.fine(() -> "EclipseLink retries a read that failed at the connection " + ATTEMPTS + " time(s), after " + DELAY_MS + " ms");
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "EclipseLink's query retries could not be set, so a read may wait up to 10 s for a database that "
                    + "stopped before it fails (" + e + ")", e);
        }
    }
}
