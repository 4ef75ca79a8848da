package dev.amcp.gateway.it;

import dev.amcp.gateway.governance.TestLicenses;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Builds the test deployment from the WAR Maven just packaged, so integration tests run the real artifact, plus
 * the test classes and a settings jar that points upstream URLs at this test server.
 */
public final class Deployments {

    public static final String NAME = "amcp-it";
    /** The test deployments' master key (32 bytes, base64); a test of another key names its own. */
    public static final String MASTER_KEY = "dGVzdC1tYXN0ZXIta2V5LWZvci1hbWNwLWl0cy0wMDE=";

    private Deployments() {}

    public static WebArchive gateway() {
        return gateway(NAME, true, Map.of());
    }

    /**
     * A deployment of the gateway with test settings. The main one keeps the WAR's context root (/); others are
     * served under their own name, so several can run side by side with different settings.
     */
    public static WebArchive gateway(String name, boolean rootContext, Map<String, String> overrides) {
        String port = System.getProperty("it.http.port", "9180");
        String server = "http://127.0.0.1:" + port;
        String base = rootContext ? server : server + "/" + name;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("config_ordinal", "200");
        settings.put("it.base.url", base);
        settings.put("AMCP_UPSTREAM_DEMO", base + "/demo-api");
        settings.put("AMCP_UPSTREAM_IT", base + "/it-upstream");
        settings.put("AMCP_UPSTREAM_IT_SETUP", base + "/it-setup");
        settings.put("AMCP_CREDENTIAL_IT_VALUE", "Bearer it-upstream-secret");
        // Every workspace of a test may use the operator's test upstreams; UpstreamGrantsIT narrows this to test grants.
        settings.put("AMCP_UPSTREAM_SHARED", "*");
        // The allow-list the upstream tests need: port 9 for "unreachable", a name that resolves to loopback (refused
        // at call time), and a range covering all of IPv4, which names no special address (so they stay refused).
        settings.put("AMCP_UPSTREAM_ALLOWED_HOSTS", "127.0.0.1:9, localhost:" + port + ", 0.0.0.0/0");
        settings.put("AMCP_UPSTREAM_MAX_BYTES", "65536");
        settings.put("AMCP_LICENSE_EXTRA_TRUSTED_KEYS", TestLicenses.TEST_PUBLIC_KEY);
        settings.put("AMCP_CODE_TIMEOUT_MS", "3000");
        settings.put("AMCP_MCP_HEARTBEAT_MS", "200");
        settings.put("AMCP_CANCEL_POLL_MS", "200");
        settings.put("AMCP_MCP_LISTEN_POLL_MS", "300");
        settings.put("AMCP_CODE_MAX_CONSOLE_BYTES", "4096");
        settings.put("AMCP_CODE_MAX_RESULT_BYTES", "65536");
        settings.put("AMCP_MASTER_KEY", MASTER_KEY);
        String runnerUrl = System.getProperty("it.runner.url", "");
        if (!runnerUrl.isBlank()) {
            settings.put("CODE_RUNNER_URL", runnerUrl);
            settings.put("CODE_RUNNER_TOKEN", System.getProperty("it.runner.token", ""));
        }
        settings.putAll(overrides);
        StringBuilder properties = new StringBuilder();
        settings.forEach((k, v) -> {
            if (v != null) {
                properties.append(k).append('=').append(v).append('\n');
            }
        });
        JavaArchive settingsJar = ShrinkWrap.create(JavaArchive.class, "it-settings.jar")
                .addAsResource(new StringAsset(properties.toString()), "META-INF/microprofile-config.properties");
        WebArchive war = ShrinkWrap.create(ZipImporter.class, name + ".war")
                .importFrom(new File("target/amcp-gateway.war"))
                .as(WebArchive.class)
                .addPackage(Deployments.class.getPackage())
                .addClass(TestLicenses.class)
                .addAsLibrary(settingsJar);
        if (!rootContext) {
            war.delete("WEB-INF/ibm-web-ext.xml");
        }
        // Arquillian's servlet protocol comes as a library with a nameless web fragment, which the WAR's empty
        // <absolute-ordering/> (no library scanned) would leave out: the test deployment lets the libraries in.
        String webXml = read(war, "WEB-INF/web.xml");
        if (!webXml.contains("<absolute-ordering/>")) {
            throw new IllegalStateException("WEB-INF/web.xml no longer has the empty <absolute-ordering/> this deployment opens up");
        }
        war.delete("WEB-INF/web.xml");
        war.setWebXML(new StringAsset(webXml.replace("<absolute-ordering/>", "<absolute-ordering><others/></absolute-ordering>")));
        return war;
    }

    private static String read(WebArchive war, String path) {
        try (InputStream in = war.get(path).getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The live runner's URL, which run-tests.sh passes in; code-mode tests cannot run without one. */
    public static String requireRunner() {
        String url = System.getProperty("it.runner.url", "");
        if (url.isBlank()) {
            throw new IllegalStateException("No code runner: run the tests with ./run-tests.sh, which starts one");
        }
        return url;
    }
}
