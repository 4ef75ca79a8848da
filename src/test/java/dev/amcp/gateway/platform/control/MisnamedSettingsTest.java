package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** A start with AMCP_METRICS_PUBLIC set says it is not read and names the setting that opens /metrics. */
class MisnamedSettingsTest {

    @Test
    void aMisnamedSettingIsWarnedAboutWithTheOneToUse() {
        List<String> warnings = new ArrayList<>();
        Handler capture = new Handler() {
            @Override public void publish(LogRecord record) { warnings.add(record.getMessage()); }
            @Override public void flush() {}
            @Override public void close() {}
        };
        Logger logger = Logger.getLogger(MisnamedSettings.class.getName());
        logger.addHandler(capture);
        try {
            MisnamedSettings check = new MisnamedSettings();
            check.settings = settings(Optional.of("true"));
            check.warnOnStart(null);
            assertEquals(List.of("AMCP_METRICS_PUBLIC is set but not read; to get what it suggests, set AMCP_METRICS_AUTHENTICATION=false"),
                    warnings);
            warnings.clear();
            check.settings = settings(Optional.empty());
            check.warnOnStart(null);
            assertEquals(List.of(), warnings, "nothing to say when it is not set");
        } finally {
            logger.removeHandler(capture);
        }
    }

    private static Settings settings(Optional<String> metricsPublic) {
        return new Settings() {
            @Override
            public Optional<String> get(String name) {
                return "AMCP_METRICS_PUBLIC".equals(name) ? metricsPublic : Optional.empty();
            }
        };
    }
}
