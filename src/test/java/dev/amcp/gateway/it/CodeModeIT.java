package dev.amcp.gateway.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.audit.control.CodeRunQueries;
import dev.amcp.gateway.audit.control.CodeRunUsage;
import dev.amcp.gateway.audit.entity.CodeRun;
import dev.amcp.gateway.codemode.control.BridgeDispatcher;
import dev.amcp.gateway.codemode.control.CodeToolPinUpgrade;
import dev.amcp.gateway.codemode.control.CodeToolService;
import dev.amcp.gateway.codemode.entity.CodeToolDraft;
import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.governance.TestLicenses;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.control.LicenseService;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.tools.control.ToolCatalog;
import dev.amcp.gateway.tools.control.ToolExecutor;
import dev.amcp.gateway.tools.control.ToolService;
import dev.amcp.gateway.tools.entity.McpTool;
import dev.amcp.gateway.tools.entity.ToolDraft;
import dev.amcp.gateway.tools.entity.ToolNotAvailableException;
import dev.amcp.gateway.tools.entity.ToolResult;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import dev.amcp.gateway.workspace.entity.McpServerConfig;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code mode end to end against the live Deno runner: inline {@code code_execute}, saved code tools, the bridge
 * rules, the gateway's ceilings, license gates and the audit trail.
 */
@ExtendWith(ArquillianExtension.class)
class CodeModeIT {

    @Deployment
    static WebArchive deployment() {
        Deployments.requireRunner();
        return Deployments.gateway();
    }

    @Inject
    Fixtures fixtures;

    @Inject
    ToolExecutor executor;

    @Inject
    ToolCatalog catalog;

    @Inject
    WorkspaceService workspaces;

    @Inject
    CodeToolService codeTools;

    @Inject
    CodeRunQueries runs;

    @Inject
    LicenseService licenses;

    @Inject
    BridgeDispatcher dispatcher;

    @Inject
    CodeRunUsage usage;

    @Inject
    ToolCallLog toolCalls;

    @Inject
    CodeToolPinUpgrade pinUpgrade;

    static final String ID_SCHEMA = "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}";

    @AfterEach
    void backToCommunity() {
        licenses.uninstall(Operators.CALLER);
    }

    /** A tenant whose server "main" has a read tool echo and a write tool post_echo; inline code on, viewers granted. */
    Fixtures.Tenant inlineTenant() {
        var t = fixtures.tenant();
        fixtures.httpTool(t, "main", "echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        fixtures.httpTool(t, "main", "post_echo", null, "{\"method\":\"POST\",\"url\":\"${AMCP_UPSTREAM_IT}/echo\"}");
        workspaces.setCodeMode(t.server().getId(), McpServerConfig.CodeMode.INLINE);
        for (String role : List.of("viewer", "admin")) {
            var r = workspaces.role(t.workspace().getId(), role);
            var caps = new java.util.TreeSet<>(r.getCapabilities());
            caps.add("inlineCode");
            workspaces.updateRole(r.getId(), caps, true, Set.of());
        }
        return t;
    }

    Caller onServer(Fixtures.Tenant t, String key) {
        return fixtures.apiKeysAuth(key).withScope(CallScope.server(t.server().getId()));
    }

    ToolResult codeExecute(Caller caller, String code, String inputJson) {
        var args = Json.createObjectBuilder().add("code", code);
        if (inputJson != null) {
            args.add("input", JsonSupport.parse(inputJson));
        }
        return executor.call(caller, "code_execute", args.build());
    }

    CodeRun lastRun(Fixtures.Tenant t) {
        return runs.list(t.admin(), new CodeRunQueries.Filter(null, null, null, null, null, 1)).get(0);
    }

    @Test
    void readinessReportsTheRunner() throws Exception {
        var health = fixtures.getAbsolute(fixtures.serverUrl() + "/health/ready");
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(health.body().contains("\"state\":\"ready\""), health.body());
    }

    @Test
    void codeRunMetricsCountRunsByStatusAndBridgeCalls() throws Exception {
        var t = inlineTenant();
        Caller viewer = onServer(t, t.viewerKey());
        assertFalse(codeExecute(viewer, "return (await amcp.search()).length", null).isError());
        assertTrue(codeExecute(viewer, "throw new Error('x')", null).isError());
        String metrics = fixtures.metrics();
        assertTrue(metrics.contains("amcp_code_runs_total{") && metrics.contains("status=\"success\""), metrics);
        assertTrue(metrics.contains("status=\"error\""), metrics);
        assertTrue(metrics.contains("amcp_code_run_duration"), metrics);
        assertTrue(metrics.contains("amcp_code_run_bridge_calls"), metrics);
    }

    @Test
    void inlineCodeSearchesDescribesAndRunsReadToolsOfItsServer() {
        var t = inlineTenant();
        Caller viewer = onServer(t, t.viewerKey());
        assertTrue(catalog.list(viewer).stream().anyMatch(d -> d.name().equals("code_execute")));
        ToolResult result = codeExecute(viewer, """
                const found = await amcp.search('echo');
                const d = await amcp.describe('echo');
                const r = await amcp.run('echo', {id: String(input.n)});
                console.log('fetched', r.id);
                return {found: found.map(t => t.name), required: d.inputSchema.required, id: r.id};
                """, "{\"n\": 5}");
        assertFalse(result.isError(), result.text());
        JsonObject value = result.structuredContent();
        assertEquals(Json.createArrayBuilder().add("echo").build(), value.getJsonArray("found"), "search shows only read tools");
        assertEquals("id", value.getJsonArray("required").getString(0));
        assertEquals("5", value.getString("id"));
        CodeRun run = lastRun(t);
        assertEquals("SUCCESS", run.getStatus());
        assertTrue(run.isInlineRun());
        assertEquals(3, run.getBridgeCalls());
        assertEquals(3, fixtures.inTx(em -> em.find(CodeRun.class, run.getId())).getBridgeTrace().getJsonArray("calls").size());
    }

    @Test
    void inlineCodeCannotWriteEvenForAdminsAndMissingToolsLookTheSame() {
        var t = inlineTenant();
        ToolResult result = codeExecute(onServer(t, t.adminKey()), """
                const codes = [];
                for (const name of ['post_echo', 'does_not_exist']) {
                  try { await amcp.run(name, {}); codes.push('ran'); } catch (e) { codes.push(e.name + ':' + e.code + ':' + e.message.replace(name, 'X')); }
                }
                return {codes};
                """, null);
        assertFalse(result.isError(), result.text());
        var codes = result.structuredContent().getJsonArray("codes");
        assertTrue(codes.getString(0).startsWith("AmcpError:not_available"), codes.toString());
        assertEquals(codes.getString(0), codes.getString(1), "a write tool and a missing tool are indistinguishable");
    }

    @Test
    void codeExecuteIsOfferedOnlyWhereItIsOnAndGranted() {
        var t = inlineTenant();
        Caller member = onServer(t, t.memberKey()); // member was not granted inlineCode
        assertTrue(catalog.list(member).stream().noneMatch(d -> d.name().equals("code_execute")));
        assertThrows(ToolNotAvailableException.class, () -> codeExecute(member, "return 1", null));
        Caller shared = fixtures.apiKeysAuth(t.viewerKey()).withScope(CallScope.sharedEndpoint());
        assertTrue(catalog.list(shared).stream().noneMatch(d -> d.name().equals("code_execute")), "never on the shared endpoint");
        workspaces.setCodeMode(t.server().getId(), McpServerConfig.CodeMode.OFF);
        Caller viewer = onServer(t, t.viewerKey());
        assertTrue(catalog.list(viewer).stream().noneMatch(d -> d.name().equals("code_execute")), "off means off");
    }

    @Test
    void errorsCarryNameMessageAndConsole() {
        var t = inlineTenant();
        ToolResult result = codeExecute(onServer(t, t.viewerKey()), "console.log('about to fail'); throw new TypeError('bad input ' + input.x);", "{\"x\": 7}");
        assertTrue(result.isError());
        assertTrue(result.text().contains("TypeError: bad input 7"), result.text());
        assertTrue(result.text().contains("about to fail"), result.text());
        assertEquals("ERROR", lastRun(t).getStatus());
    }

    @Test
    void wallClockAndResultCeilingsEndTheRunAndConsoleOutputIsTruncated() {
        var t = inlineTenant();
        Caller viewer = onServer(t, t.viewerKey());
        long start = System.nanoTime();
        ToolResult spin = codeExecute(viewer, "while (true) {}", null);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(spin.isError());
        assertTrue(ms < 3000 + 2500, "ended after " + ms + " ms");
        assertEquals("TIMEOUT", lastRun(t).getStatus(), "the runner stops spinning code at its wall time: " + lastRun(t).getError());
        ToolResult flood = codeExecute(viewer, "for (let i = 0; i < 1000; i++) console.log('x'.repeat(100)); return 1;", null);
        assertFalse(flood.isError(), "too much console output does not fail a run: " + flood.text());
        CodeRun chatty = lastRun(t);
        assertEquals("SUCCESS", chatty.getStatus());
        String console = fixtures.inTx(em -> em.find(CodeRun.class, chatty.getId())).getConsoleTail();
        assertTrue(console.contains("[console output truncated at 4096 bytes]"), console);
        ToolResult big = codeExecute(viewer, "return 'y'.repeat(100000);", null);
        assertTrue(big.isError());
        assertEquals("LIMIT", lastRun(t).getStatus());
    }

    @Test
    void identityNeverComesFromTheSandbox() throws Exception {
        var t = inlineTenant();
        Caller viewer = onServer(t, t.viewerKey());
        // The code forges a raw bridge frame that asks to run as another workspace and role; the gateway must refuse
        // it rather than let it pick its identity, and the honest call before it runs as the caller.
        ToolResult result = codeExecute(viewer, """
                const own = await amcp.run('echo', {id: 'mine'});
                const forged = {type: 'bridge', id: 1000000, op: 'run', args: {name: 'post_echo', args: {}, workspaceId: 1, role: 'admin'}};
                Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(forged) + '\\n'));
                await new Promise(r => setTimeout(r, 500));
                return own.id;
                """, null);
        assertFalse(result.isError(), result.text());
        CodeRun run = lastRun(t);
        var calls = fixtures.inTx(em -> em.find(CodeRun.class, run.getId())).getBridgeTrace().getJsonArray("calls");
        assertEquals(2, calls.size(), calls.toString());
        assertEquals("ok", calls.getJsonObject(0).getString("outcome"), calls.toString());
        assertEquals(1000000, calls.getJsonObject(1).getInt("id"), calls.toString());
        assertEquals("identity_rejected", calls.getJsonObject(1).getString("outcome"), "the forged identity is refused: " + calls);
        assertTrue(toolCalls.await(t.workspace().getId(), "post_echo", 1).isEmpty(), "the forged call never reached the tool");
    }

    @Test
    void bridgeCallsInFlightWhenTheRunEndsAreAbortedUpstream() throws Exception {
        var t = inlineTenant();
        fixtures.httpTool(t, "main", "slow", "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\"}}}",
                "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/slow\",\"query\":{\"ms\":\"ms\"}}");
        Caller viewer = onServer(t, t.viewerKey());
        ToolResult result = codeExecute(viewer, """
                amcp.run('slow', {ms: 8000}).catch(() => {});
                await new Promise(r => setTimeout(r, 300));
                return 'done before the upstream';
                """, null);
        assertFalse(result.isError(), result.text());
        var slow = toolCalls.await(t.workspace().getId(), "slow", 15).orElseThrow();
        long ms = slow.durationNanos() / 1_000_000;
        assertTrue(ms < 3000, "the upstream call was aborted when the run ended, not left to run its 8 s: " + ms + " ms");
    }

    ToolDraft draft(String server, String name) {
        return new ToolDraft(server, name, name, "code tool " + name, null, null, null);
    }

    @Test
    void savedCodeToolsCallOnlyWhatTheyUse() {
        var t = inlineTenant();
        fixtures.httpTool(t, "main", "echo2", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        var saved = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "lookup"), new CodeToolSpec("""
                const a = await amcp.run('echo', {id: input.id});
                let other;
                const notUsed = ['echo', '2'].join(''); // computed, so the save warns and the bridge refuses it at run time
                try { await amcp.run(notUsed, {id: 'x'}); other = 'ran'; } catch (e) { other = e.code; }
                const visible = (await amcp.search()).map(t => t.name);
                return {id: a.id, other, visible};
                """, List.of("echo"), CodeToolSpec.INVOKER, false)));
        assertEquals(List.of("Line 4, column 22: the tool name passed to amcp.run is computed; this call is checked against uses only when it runs"),
                saved.englishWarnings());
        ToolResult result = executor.call(onServer(t, t.viewerKey()), "lookup", Json.createObjectBuilder().add("id", "42").build());
        assertFalse(result.isError(), result.text());
        assertEquals("42", result.structuredContent().getString("id"));
        assertEquals("not_available", result.structuredContent().getString("other"));
        assertEquals(Json.createArrayBuilder().add("echo").build(), result.structuredContent().getJsonArray("visible"));
        CodeRun run = lastRun(t);
        assertEquals("lookup", run.getToolName());
        assertFalse(run.isInlineRun());
        assertEquals("invoker", run.getRunAsMode());
        assertEquals("viewer", run.getRunAsRole());
    }

    @Test
    void saveTimeGatesRefuseNestingForeignToolsAndNonAdmins() {
        var t = inlineTenant();
        var other = fixtures.tenant();
        fixtures.httpTool(other, "main", "foreign", null, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/html\"}");
        var spec = new CodeToolSpec("return 1", List.of("foreign"), CodeToolSpec.INVOKER, false);
        var invalid = assertThrows(ToolService.InvalidToolException.class, () -> codeTools.create(t.admin(), new CodeToolDraft(draft("main", "c1"), spec)));
        assertTrue(invalid.problems().get("uses").english().contains("not a tool of this workspace"), invalid.problems().toString());
        codeTools.create(t.admin(), new CodeToolDraft(draft("main", "inner"), new CodeToolSpec("return 1", List.of("echo"), "invoker", false)));
        var nested = assertThrows(ToolService.InvalidToolException.class, () -> codeTools.create(t.admin(),
                new CodeToolDraft(draft("main", "outer"), new CodeToolSpec("return 1", List.of("inner"), "invoker", false))));
        assertTrue(nested.problems().get("uses").english().contains("code tools cannot call code tools"));
        var refused = assertThrows(GateRefusedException.class, () -> codeTools.create(t.member(),
                new CodeToolDraft(draft("main", "c2"), new CodeToolSpec("return 1", List.of("echo"), "invoker", false))));
        assertTrue(refused.getMessage().contains("'admin' capability"), refused.getMessage());
    }

    @Test
    void licenseGatesCodeToolCountAndWrites() {
        var t = inlineTenant();
        var spec = new CodeToolSpec("return 1", List.of("echo"), "invoker", false);
        for (int i = 1; i <= 3; i++) {
            assertEquals(List.of(), licenseWarnings(codeTools.create(t.admin(), new CodeToolDraft(draft("main", "ct" + i), spec))));
        }
        var hard = assertThrows(GateRefusedException.class, () -> codeTools.create(t.admin(), new CodeToolDraft(draft("main", "ct4"), spec)));
        assertTrue(hard.getMessage().contains("community license allows 3"), hard.getMessage());
        var writes = new CodeToolSpec("return 1", List.of("post_echo"), "invoker", true);
        licenses.install(Operators.CALLER, TestLicenses.sign("pro", 3, 1000));
        var soft = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "ct4"), spec));
        assertEquals(1, licenseWarnings(soft).size(), "paid editions warn instead of refusing");
        var needsEnterprise = assertThrows(GateRefusedException.class, () -> codeTools.update(t.admin(), soft.value().getId(),
                new CodeToolDraft(draft("main", "ct4"), writes)));
        assertTrue(needsEnterprise.getMessage().contains("Enterprise"), needsEnterprise.getMessage());
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 1000));
        assertFalse(codeTools.update(t.admin(), soft.value().getId(), new CodeToolDraft(draft("main", "ct4"), writes)).value().isReadOnly());
    }

    /** The license's warnings on a save (a save may also say the code was not checked, when no runner could check it). */
    static List<String> licenseWarnings(dev.amcp.gateway.governance.entity.Gated<?> saved) {
        return saved.englishWarnings().stream().filter(w -> w.contains("license")).toList();
    }

    @Test
    void definerModeRunsWithTheDefinersRoleWhileTheCodeIsUnchanged() {
        var t = inlineTenant();
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 1000));
        workspaces.createServer(t.workspace().getId(), "ops", "Ops", null);
        fixtures.httpTool(t, "ops", "ops_echo", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        var memberRole = workspaces.role(t.workspace().getId(), "member");
        workspaces.updateRole(memberRole.getId(), memberRole.getCapabilities(), false, Set.of(t.server().getId()));
        String code = "try { return (await amcp.run('ops_echo', {id: 'z'})).id; } catch (e) { return e.code; }";
        var asDefiner = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "as_definer"), new CodeToolSpec(code, List.of("ops_echo"), "definer", false)));
        codeTools.create(t.admin(), new CodeToolDraft(draft("main", "as_invoker"), new CodeToolSpec(code, List.of("ops_echo"), "invoker", false)));
        Caller member = onServer(t, t.memberKey());
        assertEquals("\"z\"", executor.call(member, "as_definer", JsonObject.EMPTY_JSON_OBJECT).text(), "the definer may use server ops");
        assertEquals("\"not_available\"", executor.call(member, "as_invoker", JsonObject.EMPTY_JSON_OBJECT).text(), "the member may not");
        assertEquals("admin", runs.list(t.admin(), new CodeRunQueries.Filter(null, "as_definer", null, null, null, 1)).get(0).getRunAsRole());
        assertEquals("member", runs.list(t.admin(), new CodeRunQueries.Filter(null, "as_invoker", null, null, null, 1)).get(0).getRunAsRole());
        // Someone edits the stored code behind the service's back: the pin no longer matches, so it must not run.
        int changed = fixtures.inTx(em -> em.createQuery("update McpTool t set t.endpointMapping = :m where t.id = :id")
                .setParameter("m", new CodeToolSpec("return 'pwned'", List.of("ops_echo"), "definer", false).toMapping())
                .setParameter("id", asDefiner.value().getId()).executeUpdate());
        assertEquals(1, changed);
        assertEquals("return 'pwned'", catalog.findStored(member, "as_definer").orElseThrow().getEndpointMapping().getString("code"),
                "the catalog reads what is stored now");
        ToolResult tampered = executor.call(member, "as_definer", JsonObject.EMPTY_JSON_OBJECT);
        assertTrue(tampered.isError(), tampered.text());
        assertTrue(tampered.text().contains("changed outside an admin's save"), tampered.text());
        var resaved = codeTools.update(t.admin(), asDefiner.value().getId(),
                new CodeToolDraft(draft("main", "as_definer"), new CodeToolSpec(code + " ", List.of("ops_echo"), "definer", false)));
        assertTrue(resaved.englishWarnings().stream().anyMatch(w -> w.contains("pinned")), resaved.warnings().toString());
        assertEquals("\"z\"", executor.call(member, "as_definer", JsonObject.EMPTY_JSON_OBJECT).text());
    }

    /** Each part of a code tool's definition, changed in the database behind the service's back. */
    @Test
    void aCodeToolChangedOutsideAnAdminsSaveRefusesToRun() {
        var t = inlineTenant();
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 1000));
        fixtures.httpTool(t, "main", "echo2", ID_SCHEMA, "{\"method\":\"GET\",\"url\":\"${AMCP_UPSTREAM_IT}/echo/{id}\"}");
        String code = "return (await amcp.run('echo', {id: 'a'})).id;";
        var saved = new CodeToolSpec(code, List.of("echo"), "invoker", false);
        var tampered = java.util.Map.of(
                "code", new CodeToolSpec("return 'pwned'", List.of("echo"), "invoker", false).toMapping(),
                "uses", new CodeToolSpec(code, List.of("echo", "echo2"), "invoker", false).toMapping(),
                "allowWrites", new CodeToolSpec(code, List.of("echo"), "invoker", true).toMapping(),
                "runAs", new CodeToolSpec(code, List.of("echo"), "definer", false).toMapping());
        Caller admin = onServer(t, t.adminKey()); // may call a tool that writes, so only the pin can stop it
        for (var change : tampered.entrySet()) {
            String name = "pinned_" + change.getKey().toLowerCase();
            long id = codeTools.create(t.admin(), new CodeToolDraft(draft("main", name), saved)).value().getId();
            assertEquals("\"a\"", executor.call(admin, name, JsonObject.EMPTY_JSON_OBJECT).text(), "runs as saved");
            assertEquals(1, (int) fixtures.inTx(em -> em.createQuery("update McpTool t set t.endpointMapping = :m where t.id = :id")
                    .setParameter("m", change.getValue()).setParameter("id", id).executeUpdate()));
            assertRefused(t, admin, name, change.getKey());
        }
        long schemaTool = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "pinned_schema"), saved)).value().getId();
        assertFalse(executor.call(admin, "pinned_schema", JsonObject.EMPTY_JSON_OBJECT).isError());
        assertEquals(1, (int) fixtures.inTx(em -> em.createQuery("update McpTool t set t.inputSchema = :s where t.id = :id")
                .setParameter("s", JsonSupport.parseObject("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}"))
                .setParameter("id", schemaTool).executeUpdate()));
        assertRefused(t, admin, "pinned_schema", "inputSchema");
    }

    @Test
    void aToolSavedWithACodeOnlyPinIsRepinnedOnceAndStillCannotBeTamperedWith() {
        var t = inlineTenant();
        String code = "return (await amcp.run('echo', {id: 'a'})).id;";
        var spec = new CodeToolSpec(code, List.of("echo"), "invoker", false);
        long legacy = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "legacy_pin"), spec)).value().getId();
        long forged = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "forged_pin"), spec)).value().getId();
        // what the earlier release stored: the hash of the code alone
        setPin(legacy, Hashes.sha256(code));
        // a tampered tool whose pin is no code-only pin of its code keeps failing
        setPin(forged, Hashes.sha256("return 'other'"));
        Caller admin = onServer(t, t.adminKey());
        assertRefused(t, admin, "legacy_pin", "code-only pin before the upgrade");

        assertEquals(1, pinUpgrade.upgradeCodeOnlyPins(), "the one code-only pin");
        assertEquals("\"a\"", executor.call(admin, "legacy_pin", JsonObject.EMPTY_JSON_OBJECT).text(), "re-pinned to what it stored");
        assertRefused(t, admin, "forged_pin", "a pin of another shape");
        assertEquals(0, pinUpgrade.upgradeCodeOnlyPins(), "nothing left to re-pin");
    }

    private void setPin(long toolId, String pin) {
        assertEquals(1, (int) fixtures.inTx(em -> em.createQuery("update McpTool t set t.pinnedCodeSha256 = :p where t.id = :id")
                .setParameter("p", pin).setParameter("id", toolId).executeUpdate()));
    }

    private void assertRefused(Fixtures.Tenant t, Caller caller, String tool, String changed) {
        ToolResult result = executor.call(caller, tool, JsonObject.EMPTY_JSON_OBJECT);
        assertTrue(result.isError(), changed + ": " + result.text());
        assertTrue(result.text().contains("changed outside an admin's save"), changed + ": " + result.text());
        CodeRun run = lastRun(t);
        assertEquals(tool, run.getToolName());
        assertEquals("REFUSED", run.getStatus(), changed);
    }

    @Test
    void aDowngradedLicenseStopsCodeToolWritesAtRunTime() {
        var t = inlineTenant();
        licenses.install(Operators.CALLER, TestLicenses.sign("enterprise", 100, 1000));
        codeTools.create(t.admin(), new CodeToolDraft(draft("main", "writer"), new CodeToolSpec(
                "return (await amcp.run('post_echo', {n: 1})).received.n;", List.of("post_echo"), "invoker", true)));
        Caller admin = onServer(t, t.adminKey());
        assertEquals("1", executor.call(admin, "writer", JsonObject.EMPTY_JSON_OBJECT).text(), "writes run while licensed");
        long counted = usage.counted(t.workspace().getId(), CodeRunUsage.currentMonth());
        licenses.uninstall(Operators.CALLER);
        ToolResult refused = executor.call(admin, "writer", JsonObject.EMPTY_JSON_OBJECT);
        assertTrue(refused.isError());
        assertTrue(refused.text().contains("Code tools that write (allowWrites) need the Enterprise edition"), refused.text());
        assertEquals("LIMIT", lastRun(t).getStatus());
        assertEquals(counted, usage.counted(t.workspace().getId(), CodeRunUsage.currentMonth()), "a refused write run uses no quota");
    }

    @Test
    void racingSavesCannotOvershootMaxCodeTools() throws Exception {
        var t = inlineTenant();
        ManagedExecutorService threads = javax.naming.InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        var spec = new CodeToolSpec("return 1", List.of("echo"), "invoker", false);
        List<Future<Boolean>> racing = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int n = i;
            racing.add(threads.submit(() -> {
                try {
                    codeTools.create(t.admin(), new CodeToolDraft(draft("main", "race" + n), spec));
                    return true;
                } catch (GateRefusedException e) {
                    assertTrue(e.getMessage().contains("community license allows 3"), e.getMessage());
                    return false;
                }
            }));
        }
        int saved = 0;
        for (Future<Boolean> save : racing) {
            saved += save.get(60, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertEquals(3, saved, "exactly the license's code tools are saved, however the saves race");
        assertEquals(3L, (long) fixtures.inTx(em -> em.createQuery("select count(t) from McpTool t where t.workspaceId = :ws and t.method = 'code'", Long.class)
                .setParameter("ws", t.workspace().getId()).getSingleResult()));
    }

    /** Needs the runner's code check (the 'check' frame, runner branch of issue 13). */
    @Test
    void theRunnerChecksCodeWhenItIsSaved() {
        var t = inlineTenant();
        var ok = codeTools.create(t.admin(), new CodeToolDraft(draft("main", "bulk-import"), new CodeToolSpec(
                "// import is only a word here\nreturn {import: 'x.import', note: 'bulk-import'};", List.of("echo"), "invoker", false)));
        assertEquals(List.of(), ok.englishWarnings(), "checked by the runner, nothing to warn about");
        var refused = assertThrows(ToolService.InvalidToolException.class, () -> codeTools.create(t.admin(),
                new CodeToolDraft(draft("main", "importer"), new CodeToolSpec("const x = 1;\nconst m = await import('node:fs');",
                        List.of("echo"), "invoker", false))));
        assertEquals("Line 2, column 17: import is not available in code mode; call tools with amcp.run",
                refused.problems().get("code").english());
        var broken = assertThrows(ToolService.InvalidToolException.class, () -> codeTools.create(t.admin(),
                new CodeToolDraft(draft("main", "broken"), new CodeToolSpec("return (1;", List.of("echo"), "invoker", false))));
        assertTrue(broken.problems().get("code").english().startsWith("Line 1, column "), broken.problems().toString());
    }

    @Test
    void proposingCodeToolsNeedsProposeCodeAndIsCappedPerUserAndInSize() {
        var t = inlineTenant();
        Caller viewer = onServer(t, t.viewerKey());
        assertTrue(catalog.list(viewer).stream().noneMatch(d -> d.name().equals("propose_code_tool")), "not without proposeCode");
        assertThrows(ToolNotAvailableException.class, () -> propose(viewer, "p0", "return 1", null));
        assertTrue(catalog.list(onServer(t, t.adminKey())).stream().anyMatch(d -> d.name().equals("propose_code_tool")), "admins imply it");
        var r = workspaces.role(t.workspace().getId(), "viewer");
        var caps = new java.util.TreeSet<>(r.getCapabilities());
        caps.add("proposeCode");
        workspaces.updateRole(r.getId(), caps, true, Set.of());
        Caller granted = onServer(t, t.viewerKey());
        String bigSchema = "{\"type\":\"object\",\"description\":\"" + "s".repeat(140_000) + "\"}";
        ToolResult tooBig = propose(granted, "big", "return 1", bigSchema);
        assertTrue(tooBig.isError());
        assertTrue(tooBig.text().contains("a proposal may be at most 131072 bytes"), tooBig.text());
        for (int i = 1; i <= 10; i++) {
            ToolResult ok = propose(granted, "p" + i, "return " + i, null);
            assertFalse(ok.isError(), ok.text());
        }
        ToolResult eleventh = propose(granted, "p11", "return 11", null);
        assertTrue(eleventh.isError());
        assertTrue(eleventh.text().contains("You already have 10 proposals waiting for review"), eleventh.text());
        assertFalse(propose(onServer(t, t.adminKey()), "by_admin", "return 1", null).isError(), "the cap is per user");
    }

    ToolResult propose(Caller caller, String name, String code, String inputSchema) {
        var args = Json.createObjectBuilder().add("name", name).add("description", "d").add("code", code)
                .add("uses", Json.createArrayBuilder().add("echo"));
        if (inputSchema != null) {
            args.add("inputSchema", JsonSupport.parseObject(inputSchema));
        }
        return executor.call(caller, "propose_code_tool", args.build());
    }

    @Test
    void monthlyQuotaRefusesRunsWithLimit() {
        var t = inlineTenant();
        licenses.install(Operators.CALLER, TestLicenses.sign("pro", 10, 1));
        Caller viewer = onServer(t, t.viewerKey());
        assertFalse(codeExecute(viewer, "return 1", null).isError());
        ToolResult second = codeExecute(viewer, "return 2", null);
        assertTrue(second.isError());
        assertTrue(second.text().contains("Monthly code-run quota"), second.text());
        assertEquals("LIMIT", lastRun(t).getStatus());
        assertTrue(codeExecute(viewer, "return 3", null).isError(), "quota-refused runs do not free up the quota");
    }

    @Test
    void racingRunsCannotOvershootTheMonthlyQuota() throws Exception {
        var t = inlineTenant();
        licenses.install(Operators.CALLER, TestLicenses.sign("pro", 10, 3));
        Caller viewer = onServer(t, t.viewerKey());
        ManagedExecutorService threads = javax.naming.InitialContext.doLookup("java:comp/DefaultManagedExecutorService");
        List<Future<ToolResult>> racing = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            int n = i;
            racing.add(threads.submit(() -> codeExecute(viewer, "return " + n, null)));
        }
        int admitted = 0;
        for (Future<ToolResult> run : racing) {
            ToolResult result = run.get(60, TimeUnit.SECONDS);
            if (result.isError()) {
                assertTrue(result.text().contains("Monthly code-run quota"), result.text());
            } else {
                admitted++;
            }
        }
        assertEquals(3, admitted, "exactly the quota's runs go ahead, however they race");
        assertEquals(3, usage.counted(t.workspace().getId(), CodeRunUsage.currentMonth()));
        assertEquals(6, runs.list(t.admin(), new CodeRunQueries.Filter(null, null, null, null, null, 100)).size(),
                "every run, admitted or not, has its audit row");
    }
}
