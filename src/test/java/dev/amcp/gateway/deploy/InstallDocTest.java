package dev.amcp.gateway.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * Keeps docs/install.md in step with the production server.xml: the same features, the same data source
 * (JNDI name, driver type, stringtype), and every setting the gateway needs is documented. InstallSnippetIT then
 * proves the snippet really starts the gateway.
 */
class InstallDocTest {

    static Document snippet() throws Exception {
        String doc = Files.readString(Path.of("docs", "install.md"));
        String begin = "<!-- install-snippet:begin -->";
        int from = doc.indexOf(begin);
        int to = doc.indexOf("<!-- install-snippet:end -->");
        assertTrue(from >= 0 && to > from, "snippet markers in docs/install.md");
        String block = doc.substring(from + begin.length(), to).strip();
        block = block.substring("```xml\n".length(), block.length() - 3);
        return parse(block);
    }

    static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    static List<String> features(Document server) {
        List<String> features = new ArrayList<>();
        NodeList nodes = server.getElementsByTagName("feature");
        for (int i = 0; i < nodes.getLength(); i++) {
            features.add(nodes.item(i).getTextContent().strip());
        }
        return features;
    }

    static Element only(Document server, String tag) {
        NodeList nodes = server.getElementsByTagName(tag);
        assertEquals(1, nodes.getLength(), "one <" + tag + ">");
        return (Element) nodes.item(0);
    }

    @Test
    void snippetHasTheProductionFeaturesAndDataSource() throws Exception {
        Document snippet = snippet();
        Document production = parse(Files.readString(Path.of("src/main/liberty/config/server.xml")));
        assertEquals(new TreeSet<>(features(production)), new TreeSet<>(features(snippet)));

        Element ds = only(snippet, "dataSource");
        assertEquals("jdbc/amcp", ds.getAttribute("jndiName"));
        assertEquals("java.sql.Driver", ds.getAttribute("type"));
        Element props = only(snippet, "properties");
        assertEquals("unspecified", props.getAttribute("stringtype"));
        assertEquals("${DB_URL}", props.getAttribute("URL"));
        assertEquals("${DB_USER}", props.getAttribute("user"));
        assertEquals("${DB_PASSWORD}", props.getAttribute("password"));
        assertEquals(only(production, "properties").getAttribute("stringtype"), props.getAttribute("stringtype"));

        Element fileset = only(snippet, "fileset");
        assertEquals("${shared.resource.dir}/jdbc", fileset.getAttribute("dir"), "driver in the shared resources");
        assertEquals(((Element) only(snippet, "library")).getAttribute("id"), only(snippet, "jdbcDriver").getAttribute("libraryRef"));
        assertEquals("amcp-gateway.war", only(snippet, "webApplication").getAttribute("location"));
        assertEquals(0, snippet.getElementsByTagName("httpEndpoint").getLength(), "the existing server keeps its own ports");
    }

    @Test
    void everyOperatorSettingIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("docs", "install.md"));
        for (String setting : List.of("DB_URL", "DB_USER", "DB_PASSWORD", "CODE_RUNNER_URL", "CODE_RUNNER_TOKEN",
                "AMCP_ALLOWED_ORIGINS", "AMCP_LOG_FORMAT", "AMCP_BOOTSTRAP_OPERATOR", "AMCP_BOOTSTRAP_OPERATOR_PASSWORD",
                "AMCP_BOOTSTRAP_OPERATOR_API_KEY", "install-walk:begin", "License", "Upgrades", "Flyway")) {
            assertTrue(doc.contains(setting), "docs/install.md covers " + setting);
        }
    }
}
