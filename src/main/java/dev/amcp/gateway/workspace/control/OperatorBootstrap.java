package dev.amcp.gateway.workspace.control;

import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Creates the first operator at start when {@code AMCP_BOOTSTRAP_OPERATOR} names one and the instance has no operator
 * yet; later starts find one and do nothing ({@link FirstOperator}, which also keeps nodes starting together to one
 * operator). The password is {@code AMCP_BOOTSTRAP_OPERATOR_PASSWORD} or a generated one, the API key
 * {@code AMCP_BOOTSTRAP_OPERATOR_API_KEY} or a generated one; generated secrets are printed once.
 */
@ApplicationScoped
public class OperatorBootstrap {

    public static final String USERNAME = "AMCP_BOOTSTRAP_OPERATOR";
    public static final String PASSWORD = "AMCP_BOOTSTRAP_OPERATOR_PASSWORD";
    public static final String API_KEY = "AMCP_BOOTSTRAP_OPERATOR_API_KEY";
    private static final int ATTEMPTS = 5;
    private static final Logger LOG = Logger.getLogger(OperatorBootstrap.class.getName());

    @Inject
    Settings settings;

    @Inject
    Migrations migrations;

    @Inject
    FirstOperator firstOperator;

    void bootstrapOnStart(@Observes @Priority(Migrations.PRIORITY + 6) Startup startup) {
        if (!migrations.status().applied()) {
            return;
        }
        Optional<String> username = settings.get(USERNAME);
        if (username.isEmpty()) {
            if (firstOperator.count() == 0) {
                LOG.warning("This gateway has no operator yet; set " + USERNAME + " (and " + PASSWORD
                        + ") and restart to create the first one (docs/install.md)");
            }
            return;
        }
        try {
            createFirstOperator(username.get(), settings.get(PASSWORD).orElse(null), settings.get(API_KEY).orElse(null))
                    .ifPresentOrElse(this::printBanner, () -> LOG.info("An operator exists already; " + USERNAME + " is not used again"));
        } catch (RuntimeException e) {
            // the transaction rolled back, nothing was created; the gateway keeps serving
            LOG.severe("The first operator was not created: " + e.getMessage());
        }
    }

    /**
     * {@link FirstOperator#createUnlessOneExists} until it gets through: a node that waited longer for the lock than
     * the database allows (H2 gives up after a second) tries again, and then finds the operator the other node
     * created. Bad settings ({@link IllegalArgumentException}) are not tried again.
     */
    public Optional<FirstOperator.Created> createFirstOperator(String username, String password, String fixedKey) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return firstOperator.createUnlessOneExists(username, password, fixedKey);
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (RuntimeException e) {
                last = e;
                LOG.log(Level.FINE, "Operator bootstrap attempt " + attempt + " failed", e);
            }
        }
        throw last;
    }

    private void printBanner(FirstOperator.Created op) {
        String base = "http://localhost:" + settings.get("AMCP_HTTP_PORT", "9080");
        String banner = String.join(System.lineSeparator(),
                "",
                "============== AMCP Gateway: first operator created ==============",
                "  Operator:  " + op.username() + (op.passwordGenerated() ? "   password " + op.password() + "   (shown once)"
                        : "   (password from " + PASSWORD + ")"),
                "  API key:   " + (op.keyGenerated() ? op.apiKey() + "   (shown once; stored only as a hash)" : "(from " + API_KEY + ")"),
                "  Next:      curl -s -X POST -H 'Authorization: Bearer <operator key>' -H 'Content-Type: application/json' \\",
                "               -d '{\"slug\":\"acme\",\"name\":\"Acme\",\"admin\":{\"username\":\"acme-admin\"}}' " + base + "/api/workspaces",
                "  Guide:     docs/install.md",
                "===================================================================",
                "");
        System.out.println(banner);
        LOG.info(() -> "Created the first operator, " + op.username());
    }
}
