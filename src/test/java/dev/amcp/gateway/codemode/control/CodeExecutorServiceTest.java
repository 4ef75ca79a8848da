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

    @Test
    void theAuditRowIsClosedEvenWhenTheRunFailsWithAnError() {
        List<CodeRunRecorder.RunEnd> finished = new CopyOnWriteArrayList<>();
        CodeExecutorService service = new CodeExecutorService();
        service.recorder = new CodeRunRecorder() {
            @Override
            public long begin(RunIdentity id) {
                return 7;
            }

            @Override
            public void finish(long rowId, RunEnd end) {
                assertEquals(7, rowId);
                finished.add(end);
            }
        };
        service.connector = new RunnerConnector() {
            @Override
            public Optional<String> unavailableReason() {
                throw new StackOverflowError("deep trouble");
            }
        };
        CodeRunRequest request = new CodeRunRequest(RunSessionTest.CALLER, RunSessionTest.CALLER, "return 1", JsonValue.NULL, true,
                1L, null, "code_execute", "invoker");
        assertThrows(StackOverflowError.class, () -> service.run(request));
        assertEquals(1, finished.size(), "the row is closed");
        assertEquals("ERROR", finished.get(0).status());
        assertTrue(finished.get(0).error().startsWith("The gateway failed to run the code (reference "), finished.get(0).error());
    }
}
