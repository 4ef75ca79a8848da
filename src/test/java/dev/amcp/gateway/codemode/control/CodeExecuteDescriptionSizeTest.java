package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.sources.entity.ImportedOperation;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The size of {@code code_execute}'s description, for the demo server (its read-only tools, as inline code sees them)
 * and for a 200-tool server, against the default budget. The figures go into docs/benchmarks.md.
 */
class CodeExecuteDescriptionSizeTest {

    static final int BUDGET = 8 * 1024;

    static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    static List<ToolDescriptor> demoReadTools() {
        return dev.amcp.gateway.demo.DemoOpenApiTest.tools().stream().filter(ImportedOperation::readOnly)
                .map(t -> new ToolDescriptor(t.name(), t.title(), t.description(), t.inputSchema(), t.outputSchema(), true, false, true, false))
                .toList();
    }

    @Test
    void theDemoServerIsDeclaredWhole() {
        List<ToolDescriptor> demo = demoReadTools();
        String description = CodeExecuteProvider.description(demo, BUDGET);
        System.out.printf("code_execute description, demo server (%d read tools): %d bytes (declarations budget %d)%n",
                demo.size(), bytes(description), BUDGET);
        demo.forEach(t -> assertTrue(description.contains(TypeDeclarations.literal(t.name()) + ": { args:"), t.name()));
        assertTrue(!description.contains("more tool"), description);
    }

    @Test
    void aTwoHundredToolServerKeepsToTheBudget() {
        List<ToolDescriptor> tools = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tools.add(new ToolDescriptor("resource_" + i + "_list", null, "Lists the resources of kind " + i + ", newest first.",
                    JsonSupport.parseObject("""
                            {"type":"object","properties":{"status":{"type":"string","enum":["active","archived"]},
                             "limit":{"type":"integer","description":"at most this many"},"cursor":{"type":"string"}}}"""),
                    JsonSupport.parseObject("""
                            {"type":"object","required":["items"],"properties":{"items":{"type":"array","items":{"type":"object",
                             "properties":{"id":{"type":"string"},"name":{"type":"string"},"createdAt":{"type":"string"}}}},
                             "next":{"type":["string","null"]}}}"""), true, false, true, false));
        }
        String description = CodeExecuteProvider.description(tools, BUDGET);
        int fixed = bytes(CodeExecuteProvider.description(List.of(), BUDGET)) - bytes(TypeDeclarations.namespace(List.of(), BUDGET));
        long declared = description.lines().filter(l -> l.startsWith("    \"resource_")).count();
        System.out.printf("code_execute description, 200-tool server: %d bytes, %d tools declared, the rest named by count%n",
                bytes(description), declared);
        assertTrue(bytes(description) <= fixed + BUDGET, "over budget: " + bytes(description));
        assertTrue(declared > 10 && declared < 200, "declared " + declared);
        assertTrue(description.contains("// " + (200 - declared) + " more tools"), description);
    }
}
