package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.workspace.control.OperatorBootstrap;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.Map;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code AMCP_LICENSE} installs its document when the gateway starts, as the README says: a node started with a trial
 * license in its settings serves those terms. (It used to log "No active transaction" and keep the community terms:
 * the start-up install called its transactional method directly, past the interceptor.)
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LicenseFromEnvironmentIT {

    static final String NODE = "/amcp-license-env";

    @Deployment(testable = false)
    static WebArchive node() {
        return Deployments.gateway("amcp-license-env", false, Map.of("AMCP_LICENSE", TestLicenses.sign("trial", 7, 777),
                OperatorBootstrap.USERNAME, Operators.USERNAME, OperatorBootstrap.PASSWORD, Operators.PASSWORD,
                OperatorBootstrap.API_KEY, Operators.API_KEY));
    }

    @Test
    void aLicenseInTheSettingsIsInstalledAtStart() throws Exception {
        try {
            HttpResponse<String> terms = OperatorIT.send("GET", NODE + "/api/license", Operators.API_KEY, null);
            assertEquals(200, terms.statusCode(), terms.body());
            JsonObject license = OperatorIT.json(terms);
            assertEquals("trial", license.getString("edition"), terms.body());
            assertEquals(777, license.getJsonObject("features").getInt("monthlyCodeRuns"), terms.body());
        } finally {
            // Licenses are per gateway, and the other tests expect the community terms.
            OperatorIT.send("DELETE", NODE + "/api/license", Operators.API_KEY, null);
        }
    }
}
