package dev.amcp.gateway.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.codemode.control.CodeCheck;
import dev.amcp.gateway.codemode.entity.RunnerFrames;
import dev.amcp.gateway.editor.control.CodeToolForms;
import dev.amcp.gateway.editor.control.LicenseUsages;
import dev.amcp.gateway.editor.control.LineDiff;
import dev.amcp.gateway.editor.control.RunViews;
import dev.amcp.gateway.editor.entity.CodeToolForm;
import dev.amcp.gateway.editor.entity.DiffLine;
import dev.amcp.gateway.governance.entity.Edition;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.control.JsonSupport;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The code-mode pages' logic without a server: the code tool form, the runner's reading of code for the editor, the line diff, license usage. */
class CodeModeControlTest {

    @Test
    void theRunnersReadingOfTheCodeIsWhatTheEditorPreFills() {
        var verdict = new CodeCheck.Verdict(true, new RunnerFrames.CheckResult(List.of(),
                List.of(new RunnerFrames.ToolCall("orders_list", "run", 1, 26), new RunnerFrames.ToolCall("customer_get", "describe", 2, 32),
                        new RunnerFrames.ToolCall("orders_list", "run", 3, 30)),
                List.of(new RunnerFrames.ComputedCall(4, 32, "the tool name passed to amcp.run is computed"))));
        assertEquals(List.of("orders_list", "customer_get"), verdict.toolNames(), "each name once, in order of appearance");
        assertEquals(List.of(new RunnerFrames.ToolCall("customer_get", "describe", 2, 32)), verdict.outside(List.of("orders_list")));
        assertEquals(List.of(), verdict.outside(List.of("orders_list", "customer_get")));
        var json = JsonSupport.parseObject(CodeToolForms.analysis(verdict));
        assertTrue(json.getBoolean("checked"));
        assertEquals("[\"orders_list\",\"customer_get\"]", json.getJsonArray("names").toString());
        assertEquals(4, json.getJsonArray("computed").getJsonObject(0).getInt("line"));
        assertEquals("{\"checked\":false,\"names\":[],\"problems\":[],\"computed\":[]}", CodeToolForms.analysis(CodeCheck.Verdict.UNCHECKED));
    }

    @Test
    void theFormKeepsInputAndReportsJsonProblemsPerField() {
        Map<String, String> params = Map.of("server", " main ", "name", "sum", "inputSchema", "{not json", "code", "return 1;\r\n",
                "runAs", "definer", "allowWrites", "true");
        CodeToolForm form = CodeToolForms.read(params::get, k -> "uses".equals(k) ? new String[] {"a", " b ", "a", ""} : null);
        assertEquals("main", form.getServer());
        assertEquals(List.of("a", "b"), form.getUses());
        assertEquals("definer", form.getRunAs());
        assertTrue(form.isAllowWrites());
        Map<String, String> errors = new LinkedHashMap<>();
        var draft = CodeToolForms.toDraft(form, Locale.ENGLISH, errors);
        assertTrue(errors.containsKey("inputSchema"), errors.toString());
        assertNull(draft.tool().inputSchema());
        assertEquals("return 1;\n", draft.spec().code());
        assertEquals(List.of("a", "b"), draft.spec().uses());

        CodeToolForm odd = CodeToolForms.read(Map.of("runAs", "root")::get, k -> null);
        assertEquals("invoker", odd.getRunAs(), "only invoker or definer can be posted");
        assertFalse(odd.isAllowWrites());
    }

    @Test
    void testInputMustBeAJsonObject() {
        Map<String, String> errors = new LinkedHashMap<>();
        assertEquals(JsonSupport.parseObject("{\"a\":1}"), CodeToolForms.input("{\"a\":1}", Locale.ENGLISH, errors));
        assertTrue(CodeToolForms.input("", Locale.ENGLISH, errors).isEmpty());
        assertTrue(errors.isEmpty());
        CodeToolForms.input("[1]", Locale.GERMAN, errors);
        assertTrue(errors.containsKey("input"));
    }

    @Test
    void theLineDiffKeepsCommonLinesAndMarksTheRest() {
        List<DiffLine> diff = LineDiff.of("a\nb\nc\nd", "a\nc\nx\nd");
        assertEquals(List.of(new DiffLine("same", "a"), new DiffLine("removed", "b"), new DiffLine("same", "c"),
                new DiffLine("added", "x"), new DiffLine("same", "d")), diff);
        assertEquals(List.of(new DiffLine("added", "new")), LineDiff.of("", "new"));
        assertEquals(List.of(new DiffLine("same", "x")), LineDiff.of("x\r\n", "x\n").subList(0, 1));
    }

    @Test
    void licenseUsageWarnsAtHardAndSoftLimitsAndNearTheRunQuota() {
        LicenseTerms trial = new LicenseTerms(Edition.TRIAL, "T", Instant.EPOCH, null, 2, 100);
        assertEquals(List.of(), LicenseUsages.of(trial, 1, 10, Locale.ENGLISH).getWarnings());
        var atLimit = LicenseUsages.of(trial, 2, 85, Locale.ENGLISH).getWarnings();
        assertEquals(2, atLimit.size(), atLimit.toString());
        assertTrue(atLimit.get(0).contains("will be refused"), atLimit.get(0));
        assertTrue(atLimit.get(1).contains("85 of 100"), atLimit.get(1));
        LicenseTerms pro = new LicenseTerms(Edition.PRO, "P", Instant.EPOCH, null, 2, 100);
        var over = LicenseUsages.of(pro, 3, 100, Locale.ITALIAN).getWarnings();
        assertTrue(over.get(0).contains("Estendi la licenza"), over.get(0));
        assertTrue(over.get(1).contains("esaurita"), over.get(1));
    }

    @Test
    void theRunFilterReadsDaysAsUtcAndTracesBecomeRows() {
        assertEquals(Instant.parse("2026-11-02T00:00:00Z"), RunViews.dayStart("2026-11-01", 1));
        assertNull(RunViews.dayStart("yesterday", 0));
        assertNull(RunViews.dayStart(" ", 0));
        var rows = RunViews.traceRows(JsonSupport.parseObject(
                "{\"calls\":[{\"id\":1,\"op\":\"run\",\"tool\":\"orders_list\",\"outcome\":\"ok\",\"ms\":12,\"bytes\":300}]}"));
        assertEquals(Map.of("id", "1", "op", "run", "tool", "orders_list", "outcome", "ok", "ms", "12", "bytes", "300"), rows.get(0));
        assertTrue(RunViews.traceRows(null).isEmpty());
    }
}
