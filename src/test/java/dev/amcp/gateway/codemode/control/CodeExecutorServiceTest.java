package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.audit.control.CodeRunRecorder;
import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Every run's audit row is closed with a final status, whatever fails on the way (G10). */
class CodeExecutorServiceTest {

    /** Set while the stand-in recorder opens a row, i.e. inside the row's transaction. */
    static final ThreadLocal<Boolean> OPENING = ThreadLocal.withInitial(() -> false);

    /** A recorder that opens row 7 (running the admission as it opens it) and keeps how each run was closed. */
    static CodeRunRecorder recording(List<CodeRunRecorder.RunEnd> finished) {
        return new CodeRunRecorder() {
            @Override
            public <T> Opened<T> begin(RunIdentity id, java.util.function.Supplier<T> admission) {
                OPENING.set(true);
                try {
                    return new Opened<>(7, id.runId(), java.time.Instant.now(), admission.get());
                } finally {
                    OPENING.set(false);
                }
            }

            @Override
            public void finish(Opened<?> opened, RunEnd end) {
                assertEquals(7, opened.rowId());
                finished.add(end);
            }
        };
    }

    /** A service whose admission and quota ledger note what they do, with these settings and this runner. */
    static CodeExecutorService service(List<CodeRunRecorder.RunEnd> finished, List<String> ledger, java.util.Map<String, String> settings,
            java.util.function.Function<jakarta.websocket.Endpoint, java.util.concurrent.CompletableFuture<jakarta.websocket.Session>> runner) {
        CodeExecutorService service = new CodeExecutorService();
        service.recorder = recording(finished);
        service.admission = new CodeRunAdmission() {
            @Override
            public void admit(dev.amcp.gateway.governance.entity.Caller invoker, java.time.YearMonth month, CodeRunRequest request) {
                ledger.add(OPENING.get() ? "counted with the row" : "counted apart from the row");
            }
        };
        service.usage = new dev.amcp.gateway.audit.control.CodeRunUsage() {
            @Override
            public void uncount(long workspaceId, java.time.YearMonth month) {
                ledger.add("given back");
            }
        };
        service.runSettings = new CodeRunSettings();
        service.runSettings.settings = CodeRunSettingsTest.of(settings);
        service.threadFactory = threads("amcp-bridge-");
        service.dispatcher = new RunSessionTest.Answering();
        service.connector = new RunnerConnector() {
            @Override
            public Optional<String> unavailableReason() {
                return Optional.empty();
            }

            @Override
            public java.util.concurrent.CompletableFuture<jakarta.websocket.Session> openAsync(jakarta.websocket.Endpoint endpoint) {
                return runner.apply(endpoint);
            }
        };
        return service;
    }

    /** An inline {@code code_execute} of {@code return 1}. */
    static CodeRunRequest returnOne() {
        return new CodeRunRequest(RunSessionTest.CALLER, RunSessionTest.CALLER, "return 1", JsonValue.NULL, true, 1L, null,
                "code_execute", "invoker");
    }

    /** The container's thread factory, as a stand-in: plain threads named {@code prefix + n}. */
    static jakarta.enterprise.concurrent.ManagedThreadFactory threads(String prefix) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return (jakarta.enterprise.concurrent.ManagedThreadFactory) java.lang.reflect.Proxy.newProxyInstance(
                CodeExecutorServiceTest.class.getClassLoader(), new Class<?>[]{jakarta.enterprise.concurrent.ManagedThreadFactory.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "newThread" -> {
                        Thread t = new Thread((Runnable) args[0], prefix + n.incrementAndGet());
                        t.setDaemon(true);
                        yield t;
                    }
                    case "toString" -> "threads " + prefix;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /**
     * Bridge calls are answered on threads of the gateway's own (from the container's thread factory), never on the
     * server's shared pool, where the run's own request thread is parked: a burst of runs that parks every thread of that
     * pool can then still finish. The runner stand-in sends two bridge calls at once and ends the run when both are
     * answered.
     */
    @Test
    void bridgeCallsAreAnsweredOnTheGatewaysOwnThreads() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        List<String> answeredOn = new CopyOnWriteArrayList<>();
        RunSessionTest frames = new RunSessionTest();
        CodeExecutorService service = service(finished, new CopyOnWriteArrayList<>(), java.util.Map.of(), endpoint -> {
            RunSession session = (RunSession) endpoint;
            session.onOpen(frames.socket(), null);
            session.onFrame(RunSessionTest.bridge(1));
            session.onFrame(RunSessionTest.bridge(2));
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                while (frames.answers() < 2) {
                    Thread.onSpinWait();
                }
                session.onFrame(RunSessionTest.DONE_OK);
            });
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        });
        service.dispatcher = new RunSessionTest.Answering() {
            @Override
            public Answer handle(dev.amcp.gateway.governance.entity.Caller caller, String op, jakarta.json.JsonObject args) {
                answeredOn.add(Thread.currentThread().getName());
                return super.handle(caller, op, args);
            }
        };
        service.init();
        try {
            CodeRunRequest request = returnOne();
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.SUCCESS, service.run(request).status());
            assertEquals(2, answeredOn.size(), "both calls answered");
            assertTrue(answeredOn.stream().allMatch(name -> name.startsWith("amcp-bridge-")), "answered on " + answeredOn);
        } finally {
            service.stopBridgeThreads();
        }
    }

    @Test
    void theAuditRowIsClosedEvenWhenTheRunFailsWithAnError() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        CodeExecutorService service = service(finished, new CopyOnWriteArrayList<>(), java.util.Map.of(), endpoint -> {
            throw new StackOverflowError("deep trouble");
        });
        service.init();
        try {
            CodeRunRequest request = returnOne();
            assertThrows(StackOverflowError.class, () -> service.run(request));
            assertEquals(1, finished.size(), "the row is closed");
            assertEquals("ERROR", finished.get(0).status());
            assertTrue(finished.get(0).error().startsWith("The gateway failed to run the code (reference "), finished.get(0).error());
            assertEquals(16, service.freeRunSlots(), "its slot is free again");
        } finally {
            service.stopBridgeThreads();
        }
    }

    /**
     * The quota counts a run in the transaction that opens its row (one commit, not two), and a run refused before it
     * could start (no runner configured) is not counted at all (G9).
     */
    @Test
    void theQuotaCountsARunWithItsRowAndNeverARefusedOne() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        List<String> ledger = new CopyOnWriteArrayList<>();
        CodeExecutorService service = service(finished, ledger, java.util.Map.of(), endpoint -> {
            RunSession session = (RunSession) endpoint;
            session.onOpen(new RunSessionTest().socket(), null);
            session.onFrame(RunSessionTest.DONE_OK);
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        });
        service.init();
        try {
            CodeRunRequest request = returnOne();
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.SUCCESS, service.run(request).status());
            assertEquals(List.of("counted with the row"), ledger);
            service.connector = new RunnerConnector() {
                @Override
                public Optional<String> unavailableReason() {
                    return Optional.of("no runner");
                }
            };
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.REFUSED, service.run(request).status());
            assertEquals(List.of("counted with the row"), ledger, "the refused run was not counted");
            assertEquals(List.of("SUCCESS", "REFUSED"), finished.stream().map(CodeRunRecorder.RunEnd::status).toList(), "both rows closed");
        } finally {
            service.stopBridgeThreads();
        }
    }

    /**
     * The connection to the runner opens while the run's row is written (it is the slower of the two), but the runner
     * hears nothing until the run is admitted: the socket is open before the quota counts the run, and the start frame
     * goes out only after.
     */
    @Test
    void theRunnerConnectionOpensWhileTheRowIsWrittenAndTheRunStartsOnlyOnceAdmitted() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        List<String> ledger = new CopyOnWriteArrayList<>();
        RunSessionTest frames = new RunSessionTest();
        CodeExecutorService service = service(finished, ledger, java.util.Map.of(), endpoint -> {
            RunSession session = (RunSession) endpoint;
            ledger.add("connected");
            session.onOpen(frames.socket(), null);
            ledger.add(frames.sent.isEmpty() ? "nothing sent yet" : "sent " + frames.sent);
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                while (frames.sent.isEmpty()) {
                    Thread.onSpinWait();
                }
                session.onFrame(RunSessionTest.DONE_OK);
            });
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        });
        service.init();
        try {
            CodeRunRequest request = returnOne();
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.SUCCESS, service.run(request).status());
            assertEquals(List.of("connected", "nothing sent yet", "counted with the row"), ledger);
            assertEquals("start", jakarta.json.Json.createReader(new java.io.StringReader(frames.sent.get(0))).readObject().getString("type"));
            assertEquals(16, service.freeRunSlots(), "its slot is free again");
        } finally {
            service.stopBridgeThreads();
        }
    }

    /** A run the quota refuses while its connection was opening never starts: the socket closes unused, the slot is free. */
    @Test
    void aRunRefusedAtAdmissionClosesItsOpenedConnectionWithoutStarting() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        RunSessionTest frames = new RunSessionTest();
        CodeExecutorService service = service(finished, new CopyOnWriteArrayList<>(), java.util.Map.of(), endpoint -> {
            ((RunSession) endpoint).onOpen(frames.socket(), null);
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        });
        service.admission = new CodeRunAdmission() {
            @Override
            public void admit(dev.amcp.gateway.governance.entity.Caller invoker, java.time.YearMonth month, CodeRunRequest request) {
                throw new dev.amcp.gateway.governance.control.GateRefusedException(
                        dev.amcp.gateway.platform.entity.Message.of("test.quota", "Monthly code-run quota reached"));
            }
        };
        service.init();
        try {
            CodeRunRequest request = returnOne();
            var outcome = service.run(request);
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.LIMIT, outcome.status());
            assertTrue(outcome.error().contains("quota"), outcome.error());
            assertTrue(frames.sent.isEmpty(), "the runner never got a start frame: " + frames.sent);
            RunSessionTest.waitFor(frames.socketClosed::get, "the unused socket to close");
            assertEquals("LIMIT", finished.get(0).status());
            assertEquals(16, service.freeRunSlots(), "its slot is free again");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            service.stopBridgeThreads();
        }
    }

    /** A runner whose queue is full answers BusyError: the run is REFUSED and given back to the monthly quota. */
    @Test
    void aBusyRunnerRefusesTheRunAndItDoesNotCountAgainstTheQuota() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        List<String> ledger = new CopyOnWriteArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            CodeExecutorService service = service(finished, ledger, java.util.Map.of(), endpoint -> {
                RunSession session = (RunSession) endpoint;
                session.onOpen(new RunSessionTest().socket(), null);
                session.onFrame("{\"type\":\"done\",\"status\":\"error\",\"error\":{\"name\":\"BusyError\",\"code\":\"busy\","
                        + "\"message\":\"the runner's queue is full\"},\"stats\":{}}");
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            });
            service.init();
            CodeRunRequest request = returnOne();
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.REFUSED, service.run(request).status());
            assertEquals("REFUSED", finished.get(0).status());
            assertEquals(List.of("counted with the row", "given back"), ledger, "a run the runner never ran uses no quota");
            assertEquals(16, service.freeRunSlots(), "its slot is free again");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A waiting run parks a request thread that the running runs need for their frames and bridge calls, so beyond as
     * many waiting runs as there are slots a run ends LIMIT at once rather than waiting too.
     */
    @Test
    void aBurstBeyondTheSlotsAndAsManyWaitingIsRefusedAtOnce() throws Exception {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            // a runner that never accepts: the slot stays taken until the connect timeout
            CodeExecutorService service = service(finished, new CopyOnWriteArrayList<>(), java.util.Map.of(
                    "AMCP_CODE_MAX_CONCURRENT_RUNS", "1", "AMCP_CODE_RUNNER_CONNECT_TIMEOUT_MS", "2000"),
                    endpoint -> new java.util.concurrent.CompletableFuture<>());
            service.init();
            CodeRunRequest request = returnOne();
            var running = pool.submit(() -> service.run(request));
            while (service.freeRunSlots() > 0) {
                Thread.sleep(5);
            }
            var waiting = pool.submit(() -> service.run(request));
            while (service.waitingForSlot() < 1) {
                Thread.sleep(5);
            }
            var refused = service.run(request);
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.LIMIT, refused.status());
            assertTrue(refused.error().contains("as many are waiting for a slot"), refused.error());
            assertEquals(1, service.waitingForSlot(), "the refused run never waited");
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.REFUSED, running.get().status(), "the runner never accepted");
            assertEquals(dev.amcp.gateway.codemode.entity.RunStatus.REFUSED, waiting.get().status(), "the waiting run got the slot");
            assertEquals(0, service.waitingForSlot());
        } finally {
            pool.shutdownNow();
        }
    }
}
