package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.DatabaseOutage;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the REST API answers when the database fails under a request: 503 with {@code Retry-After} when it cannot be
 * reached ({@link DatabaseOutage}), else 500 with a reference the operator finds in the log; either way the API's JSON
 * error. Unmapped, these went to MicroProfile Metrics' catch-all mapper, whose answer was the server's HTML page, and
 * once, with the database stopped, a 500 whose headers could not even be sent.
 */
@Provider
public class DatabaseFailureMapper implements ExceptionMapper<PersistenceException> {

    private static final Logger LOG = Logger.getLogger(DatabaseFailureMapper.class.getName());

    @Override
    public Response toResponse(PersistenceException e) {
        return answer(e);
    }

    /** The same answer for a transaction that could not commit or roll back. */
    @Provider
    public static class Transactions implements ExceptionMapper<TransactionalException> {
        @Override
        public Response toResponse(TransactionalException e) {
            return answer(e);
        }
    }

    static Response answer(RuntimeException e) {
        if (DatabaseOutage.noted(e)) {
            LOG.log(Level.FINE, "A REST request failed on the unreachable database", e);
            return Response.fromResponse(ErrorResponses.of(Response.Status.SERVICE_UNAVAILABLE, DatabaseUnavailable.CODE, DatabaseOutage.MESSAGE))
                    .header("Retry-After", DatabaseOutage.RETRY_AFTER_SECONDS).build();
        }
        String reference = UUID.randomUUID().toString().substring(0, 8);
        LOG.log(Level.SEVERE, "REST request failed in the database, reference " + reference, e);
        return ErrorResponses.of(Response.Status.INTERNAL_SERVER_ERROR, "internal_error", "Internal error (reference " + reference + ")");
    }
}
