package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.platform.control.CanonicalJson;
import dev.amcp.gateway.platform.control.Hashes;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * The pin an admin's save puts on a code tool: a SHA-256 over everything that decides what the tool may do (code,
 * {@code uses}, {@code allowWrites}, {@code runAs}, input schema). A tool whose stored definition no longer matches
 * its pin was changed by some other path and does not run. The JSON is written canonically ({@link CanonicalJson}).
 */
final class CodeToolPin {

    private CodeToolPin() {}

    static String of(CodeToolSpec spec, JsonObject inputSchema) {
        StringBuilder b = new StringBuilder("code-tool-pin/1\n");
        CanonicalJson.write(spec.toMapping(), b);
        b.append('\n');
        CanonicalJson.write(inputSchema == null ? JsonValue.NULL : inputSchema, b);
        return Hashes.sha256(b.toString());
    }
}
