package dev.amcp.gateway.it;

import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.transaction.UserTransaction;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Test-only (never in the product WAR): the operators in the database, and a race of first-operator bootstraps as
 * nodes starting together would run them, each with a username of its own so only the bootstrap lock can keep them
 * to one operator. The race removes every operator first and puts {@link Operators#USERNAME} back afterwards.
 */
@Path("/it-operators")
@RequestScoped
public class OperatorRaceResource {

    static final int RACERS = 4;

    @Inject
    OperatorBootstrap bootstrap;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Resource
    ManagedExecutorService executor;

    @Resource
    UserTransaction tx;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Transactional
    public String operators() {
        var names = Json.createArrayBuilder();
        em.createQuery("select u.username from UserAccount u where u.operator = true order by u.username", String.class)
                .getResultList().forEach(names::add);
        return Json.createObjectBuilder().add("operators", names).build().toString();
    }

    @POST
    @Path("race")
    @Produces(MediaType.APPLICATION_JSON)
    public String race() throws Exception {
        removeOperators();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> racers = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            String name = "race-operator-" + i;
            racers.add(executor.submit(() -> {
                start.await();
                return bootstrap.createFirstOperator(name, "race-password-" + name, null).isPresent();
            }));
        }
        start.countDown();
        int created = 0;
        for (Future<Boolean> racer : racers) {
            created += racer.get(60, TimeUnit.SECONDS) ? 1 : 0;
        }
        String operators = operators();
        removeOperators();
        bootstrap.createFirstOperator(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY);
        return Json.createObjectBuilder().add("created", created)
                .add("operators", Json.createReader(new java.io.StringReader(operators)).readObject().getJsonArray("operators"))
                .build().toString();
    }

    /**
     * Bootstraps with a key that is too short and with a password that is too short, on a database without operators:
     * each is refused and leaves no account behind. Answers the refusals and the operators left.
     */
    @POST
    @Path("bad-settings")
    @Produces(MediaType.APPLICATION_JSON)
    public String badSettings() throws Exception {
        removeOperators();
        var refusals = Json.createArrayBuilder();
        for (String[] settings : new String[][] {{"bad-key-operator", "a-long-enough-password", "amcp_short"},
                {"bad-password-operator", "short", null}}) {
            try {
                bootstrap.createFirstOperator(settings[0], settings[1], settings[2]);
                refusals.add("accepted " + settings[0]);
            } catch (IllegalArgumentException e) {
                refusals.add(e.getMessage());
            }
        }
        String operators = operators();
        bootstrap.createFirstOperator(Operators.USERNAME, Operators.PASSWORD, Operators.API_KEY);
        return Json.createObjectBuilder().add("refusals", refusals)
                .add("operators", Json.createReader(new java.io.StringReader(operators)).readObject().getJsonArray("operators"))
                .build().toString();
    }

    private void removeOperators() throws Exception {
        tx.begin();
        em.joinTransaction();
        em.createNativeQuery("delete from users where is_operator = true").executeUpdate(); // their keys go with them
        tx.commit();
    }
}
