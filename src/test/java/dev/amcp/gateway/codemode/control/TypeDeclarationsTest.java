package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.entity.ToolDescriptor;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TypeScript a model is given for each tool, from tricky schemas. {@link TypeDeclarationsTscTest} compiles it. */
class TypeDeclarationsTest {

    static ToolDescriptor tool(String name, String description, String input, String output) {
        return new ToolDescriptor(name, null, description, JsonSupport.parseObject(input),
                output == null ? null : JsonSupport.parseObject(output), true, false, true, false);
    }

    static String argsOf(String inputSchema) {
        String signature = TypeDeclarations.signature(tool("t", null, inputSchema, null));
        return signature.substring("run(name: \"t\", args: ".length(), signature.length() - "): Promise<unknown>".length());
    }

    static JsonObject resource(String name) {
        try (InputStream in = TypeDeclarationsTest.class.getResourceAsStream("/typedecl/" + name)) {
            return JsonSupport.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void requiredAndOptionalPropertiesOfEachPrimitiveType() {
        assertEquals("{ id: string; count?: number; ratio?: number; active?: boolean; nothing?: null }", argsOf("""
                {"type":"object","required":["id"],"properties":{"id":{"type":"string"},"count":{"type":"integer"},
                 "ratio":{"type":"number"},"active":{"type":"boolean"},"nothing":{"type":"null"}}}"""));
    }

    @Test
    void enumsAndConstsBecomeLiteralUnions() {
        assertEquals("{ status?: \"open\" | \"closed\"; level?: 1 | 2 | null; kind?: \"fixed\" }", argsOf("""
                {"type":"object","properties":{"status":{"enum":["open","closed"]},"level":{"enum":[1,2,null]},
                 "kind":{"const":"fixed"}}}"""));
    }

    @Test
    void oneOfAnyOfAndAllOf() {
        assertEquals("{ a?: string | number; b?: boolean | string[]; c?: { x?: string } & { y?: number } }", argsOf("""
                {"type":"object","properties":{
                 "a":{"oneOf":[{"type":"string"},{"type":"number"}]},
                 "b":{"anyOf":[{"type":"boolean"},{"type":"array","items":{"type":"string"}}]},
                 "c":{"allOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"object","properties":{"y":{"type":"number"}}}]}}}"""));
    }

    @Test
    void nullableInBothSpellingsAndUnionsInArraysAreGrouped() {
        assertEquals("{ a?: string | null; b?: number | null; c?: (string | number)[] }", argsOf("""
                {"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":["number","null"]},
                 "c":{"type":"array","items":{"type":["string","number"]}}}}"""));
    }

    @Test
    void refsResolveInsideTheSchemaAndCyclesBecomeUnknown() {
        assertEquals("{ owner?: { name?: string; manager?: unknown } }", argsOf("""
                {"type":"object","properties":{"owner":{"$ref":"#/$defs/Person"}},
                 "$defs":{"Person":{"type":"object","properties":{"name":{"type":"string"},"manager":{"$ref":"#/$defs/Person"}}}}}"""));
        assertEquals("{ a?: unknown; b?: unknown }", argsOf("""
                {"type":"object","properties":{"a":{"$ref":"https://evil.example/schema.json"},"b":{"$ref":"#/nowhere"}}}"""));
    }

    @Test
    void depthIsBounded() {
        String schema = "{\"type\":\"string\"}";
        for (int i = 0; i < 20; i++) {
            schema = "{\"type\":\"object\",\"properties\":{\"n\":" + schema + "}}";
        }
        String args = argsOf(schema);
        assertTrue(args.contains("unknown"), args);
        assertFalse(args.contains("string"), args);
    }

    @Test
    void oddPropertyNamesAreQuotedAndTextCannotEscape() {
        assertEquals("{ \"x-request-id\"?: string; \"a\\\"b\"?: string; ok_1?: string }", argsOf("""
                {"type":"object","properties":{"x-request-id":{"type":"string"},"a\\"b":{"type":"string"},"ok_1":{"type":"string"}}}"""));
        String declaration = TypeDeclarations.declaration(tool("evil\"name", "Ends a comment */ declare const x: 1; /*",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"description\":\"also */ here\"}}}", null));
        assertFalse(declaration.contains("comment */"), declaration);
        assertFalse(declaration.contains("also */"), declaration);
        assertTrue(declaration.contains("run(name: \"evil\\\"name\""), declaration);
    }

    @Test
    void additionalPropertiesAndOpenObjects() {
        assertEquals("{ tags?: { [key: string]: string }; meta?: { [key: string]: unknown }; closed?: {} }", argsOf("""
                {"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}},
                 "meta":{"type":"object"},"closed":{"type":"object","additionalProperties":false}}}"""));
    }

    @Test
    void withoutAnOutputSchemaTheResultIsUnknown() {
        assertTrue(TypeDeclarations.signature(tool("t", null, "{\"type\":\"object\"}", null)).endsWith("Promise<unknown>"));
        assertTrue(TypeDeclarations.signature(tool("t", null, "{\"type\":\"object\"}",
                "{\"type\":\"object\",\"required\":[\"n\"],\"properties\":{\"n\":{\"type\":\"integer\"}}}"))
                .endsWith("Promise<{ n: number }>"));
    }

    @Test
    void thePetstorePet() {
        JsonObject pet = resource("petstore-pet.json");
        ToolDescriptor addPet = new ToolDescriptor("addPet", "Add a new pet to the store", null, pet, pet, false, false, false, false);
        String declaration = TypeDeclarations.declaration(addPet);
        String pett = "{ id?: number; name: string; category?: { id?: number; name?: string }; photoUrls: string[]; "
                + "tags?: { id?: number; name?: string }[]; /** pet status in the store */ status?: \"available\" | \"pending\" | \"sold\" }";
        assertEquals("""
                /**
                 * Add a new pet to the store
                 * Writes: changes data upstream.
                 */
                function run(name: "addPet", args: %s): Promise<%s>;
                """.formatted(pett, pett), declaration);
    }

    @Test
    void theNamespaceKeepsToItsBudgetAndSaysWhatItLeftOut() {
        List<ToolDescriptor> tools = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tools.add(tool("tool_" + i, "Tool number " + i + " of a large server",
                    "{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"string\",\"description\":\"the id\"}}}", null));
        }
        String all = TypeDeclarations.namespace(tools.subList(0, 3), 100_000);
        assertTrue(all.contains("tool_0") && all.contains("tool_2") && !all.contains("more tool"), all);

        String cut = TypeDeclarations.namespace(tools, 4000);
        assertTrue(cut.getBytes(StandardCharsets.UTF_8).length <= 4000, "size " + cut.length());
        assertTrue(cut.contains("tool_0"), "the first (most used) tools come first");
        assertFalse(cut.contains("\"tool_199\""), cut);
        int shown = (int) cut.lines().filter(l -> l.startsWith("    \"tool_")).count();
        assertTrue(cut.contains("// " + (200 - shown) + " more tools: find them with amcp.search(query)"), cut);
        assertTrue(cut.startsWith("declare namespace amcp {") && cut.endsWith("}\n"), cut);
    }
}
