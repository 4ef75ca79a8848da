package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.tools.entity.ToolDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every declaration handed to a model is valid TypeScript: the generated namespace for the tricky corpus compiles
 * with the TypeScript compiler from npm (pinned), a program using the tools correctly type-checks, and one that
 * passes a wrong argument or reads a result field that does not exist is rejected.
 */
class TypeDeclarationsTscTest {

    static final String TYPESCRIPT = "typescript@5.9.3";

    @TempDir
    static Path dir;

    @BeforeAll
    static void declarations() throws IOException {
        List<ToolDescriptor> corpus = new ArrayList<>();
        corpus.add(TypeDeclarationsTest.tool("customer_get", "Gets a customer */ by id",
                "{\"type\":\"object\",\"required\":[\"id\"],\"properties\":{\"id\":{\"type\":\"string\"}}}",
                "{\"type\":\"object\",\"required\":[\"id\",\"name\"],\"properties\":{\"id\":{\"type\":\"string\"},"
                        + "\"name\":{\"type\":\"string\"},\"tier\":{\"enum\":[\"gold\",\"silver\"]}}}"));
        corpus.add(new ToolDescriptor("addPet", "Add a pet", null, TypeDeclarationsTest.resource("petstore-pet.json"),
                TypeDeclarationsTest.resource("petstore-pet.json"), false, false, false, false));
        corpus.add(TypeDeclarationsTest.tool("odd \"name\"\u2028x-y", "line one\nline two",
                "{\"type\":\"object\",\"properties\":{\"x-request-id\":{\"type\":\"string\"},\"n\":{\"type\":[\"integer\",\"null\"]},"
                        + "\"u\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"array\",\"items\":{\"anyOf\":[{\"type\":\"number\"},{\"type\":\"null\"}]}}]},"
                        + "\"all\":{\"allOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}},{\"$ref\":\"#/$defs/B\"}]},"
                        + "\"t\":{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"},{\"const\":3}]},"
                        + "\"loop\":{\"$ref\":\"#/$defs/Loop\"},\"never\":false,\"any\":true},"
                        + "\"$defs\":{\"B\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"number\",\"nullable\":true}}},"
                        + "\"Loop\":{\"type\":\"object\",\"properties\":{\"next\":{\"$ref\":\"#/$defs/Loop\"}}}}}",
                null));
        Files.writeString(dir.resolve("amcp.d.ts"), TypeDeclarations.namespace(corpus, 100_000));
    }

    @Test
    void correctUseTypeChecks() throws Exception {
        Result result = tsc("""
                async function main() {
                  const c = await amcp.run("customer_get", { id: "c-1" });
                  const name: string = c.name;
                  const tier: "gold" | "silver" | undefined = c.tier;
                  const pet = await amcp.run("addPet", { name: "rex", photoUrls: [], status: "sold", tags: [{ id: 1 }] });
                  const petName: string = pet.name;
                  await amcp.run("odd \\"name\\"\\u2028x-y", { "x-request-id": "r", n: null, u: [1, null], all: { a: "x", b: null }, t: ["s", 3] });
                  const found = await amcp.search("customer", { limit: 5 });
                  const signature: string = found[0].signature;
                  const described = await amcp.describe("customer_get");
                  const ts: string = described.ts;
                  const other: unknown = await amcp.run("not_declared_here", { any: 1 });
                  return [name, tier, petName, signature, ts, other];
                }
                """);
        assertEquals(0, result.exit(), result.output());
    }

    @Test
    void aWrongArgumentOrResultFieldIsRejected() throws Exception {
        Result result = tsc("""
                async function main() {
                  await amcp.run("customer_get", { customerId: "c-1" });
                  const pet = await amcp.run("addPet", { name: "rex", photoUrls: [], status: "lost" });
                  return (await amcp.run("customer_get", { id: "c-1" })).email;
                }
                """);
        assertTrue(result.exit() != 0, result.output());
        assertTrue(result.output().contains("customerId"), result.output());
        assertTrue(result.output().contains("\"lost\""), result.output());
        assertTrue(result.output().contains("'email' does not exist"), result.output());
    }

    record Result(int exit, String output) {}

    static Result tsc(String program) throws Exception {
        Path main = dir.resolve("main" + System.nanoTime() + ".ts");
        Files.writeString(main, program);
        ProcessBuilder builder = new ProcessBuilder("npx", "-y", "-p", TYPESCRIPT, "tsc", "--noEmit", "--strict",
                "--target", "es2022", "--lib", "es2022", dir.resolve("amcp.d.ts").toString(), main.toString())
                .redirectErrorStream(true).directory(dir.toFile());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "tsc did not finish");
        return new Result(process.exitValue(), output);
    }
}
