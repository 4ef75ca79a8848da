package dev.amcp.gateway.it;

import java.io.File;
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

    private Deployments() {}

    public static WebArchive gateway() {
        String port = System.getProperty("it.http.port", "9180");
        String base = "http://127.0.0.1:" + port; // the WAR's ibm-web-ext.xml sets the context root to /
        JavaArchive settings = ShrinkWrap.create(JavaArchive.class, "it-settings.jar")
                .addAsResource(new StringAsset(String.join("\n",
                        "config_ordinal=200",
                        "it.base.url=" + base,
                        "AMCP_UPSTREAM_DEMO=" + base + "/demo-api",
                        "AMCP_UPSTREAM_IT=" + base + "/it-upstream",
                        "AMCP_CREDENTIAL_IT_VALUE=Bearer it-upstream-secret",
                        "AMCP_UPSTREAM_MAX_BYTES=65536",
                        "")), "META-INF/microprofile-config.properties");
        return ShrinkWrap.create(ZipImporter.class, NAME + ".war")
                .importFrom(new File("target/amcp-gateway.war"))
                .as(WebArchive.class)
                .addPackage(Deployments.class.getPackage())
                .addAsLibrary(settings);
    }
}
