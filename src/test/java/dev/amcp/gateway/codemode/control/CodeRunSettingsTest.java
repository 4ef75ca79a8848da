package dev.amcp.gateway.codemode.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.platform.control.Settings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Bad {@code AMCP_CODE_*} values are caught when the settings are read at start, with the setting's name. */
class CodeRunSettingsTest {

    static Settings of(Map<String, String> values) {
        return new Settings() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(values.get(name));
            }
        };
    }

    @Test
    void defaultsAreValid() {
        var v = CodeRunSettings.read(of(Map.of()));
        assertEquals(10_000, v.limits().timeoutMs());
        assertEquals(3_000, v.connectTimeoutMs());
        assertEquals(16, v.maxConcurrentRuns());
        assertEquals(10, v.maxPendingProposals());
    }

    @Test
    void aBadValueNamesItsSetting() {
        var notANumber = assertThrows(IllegalStateException.class, () -> CodeRunSettings.read(of(Map.of("AMCP_CODE_MEMORY_MB", "lots"))));
        assertEquals("Setting AMCP_CODE_MEMORY_MB must be a whole number, got 'lots'", notANumber.getMessage());
        var outOfRange = assertThrows(IllegalStateException.class, () -> CodeRunSettings.read(of(Map.of("AMCP_CODE_TIMEOUT_MS", "5"))));
        assertEquals("Setting AMCP_CODE_TIMEOUT_MS must be between 100 and 3600000, got 5", outOfRange.getMessage());
        var overflow = assertThrows(IllegalStateException.class, () -> CodeRunSettings.read(of(Map.of("AMCP_CODE_MAX_CONCURRENT_RUNS", "4294967297"))));
        assertEquals("Setting AMCP_CODE_MAX_CONCURRENT_RUNS must be between 1 and 10000, got 4294967297", overflow.getMessage());
        var connect = assertThrows(IllegalStateException.class, () -> CodeRunSettings.read(of(Map.of("AMCP_CODE_RUNNER_CONNECT_TIMEOUT_MS", "0"))));
        assertEquals("Setting AMCP_CODE_RUNNER_CONNECT_TIMEOUT_MS must be between 100 and 60000, got 0", connect.getMessage());
    }
}
