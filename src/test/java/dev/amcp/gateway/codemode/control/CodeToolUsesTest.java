package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.ToolDraft;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A code tool saved without {@code uses} takes the names the runner read; given ones are kept as given. */
class CodeToolUsesTest {

    static final String CODE = "const a = await amcp.run('b_tool', {});\nreturn amcp.run('a_tool', a);";
    static final CodeCheck.Verdict READ = new CodeCheck.Verdict(true, new RunnerFrames.CheckResult(List.of(),
            List.of(new RunnerFrames.ToolCall("b_tool", "run", 1, 24), new RunnerFrames.ToolCall("a_tool", "run", 2, 8),
                    new RunnerFrames.ToolCall("b_tool", "describe", 3, 1)), List.of()));

    static CodeToolDraft draft(List<String> uses, boolean usesFromCode) {
        return new CodeToolDraft(new ToolDraft("demo", "t", null, null, null, null, null),
                new CodeToolSpec(CODE, uses, CodeToolSpec.INVOKER, false), usesFromCode);
    }

    @Test
    void leftOutUsesAreTheNamesTheRunnerReadInSourceOrder() {
        CodeToolDraft complete = CodeToolService.withUsesRead(draft(List.of(), true), READ);
        assertEquals(List.of("b_tool", "a_tool"), complete.spec().uses());
        assertFalse(complete.usesFromCode());
        assertEquals(CODE, complete.spec().code());
    }

    @Test
    void givenUsesAreKeptEvenWhenTheCodeSaysMore() {
        CodeToolDraft given = draft(List.of(), false);
        assertSame(given, CodeToolService.withUsesRead(given, READ), "an explicit uses keeps today's check");
    }

    @Test
    void leftOutUsesWithoutARunnerToReadThemAreRefused() {
        var refused = assertThrows(ToolService.InvalidToolException.class,
                () -> CodeToolService.withUsesRead(draft(List.of(), true), CodeCheck.Verdict.UNCHECKED));
        assertEquals("uses was left out and no code runner answered to read it from the code (CODE_RUNNER_URL); list the tools the code calls in uses",
                refused.problems().get("uses").english());
    }
}
