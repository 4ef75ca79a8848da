package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.RunLimits;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * The code-mode settings ({@code AMCP_CODE_*}), read and checked once when the application starts. A value that is
 * not a whole number or out of range stops the start with one log line naming the setting, rather than failing every
 * run later with an error the caller cannot fix.
 */
@ApplicationScoped
public class CodeRunSettings {

    static final String TIMEOUT = "AMCP_CODE_TIMEOUT_MS";
    static final String MEMORY = "AMCP_CODE_MEMORY_MB";
    static final String MAX_BRIDGE_CALLS = "AMCP_CODE_MAX_BRIDGE_CALLS";
    static final String MAX_CONCURRENT_BRIDGE_CALLS = "AMCP_CODE_MAX_CONCURRENT_BRIDGE_CALLS";
    static final String MAX_FRAME_BYTES = "AMCP_CODE_MAX_FRAME_BYTES";
    static final String MAX_RESULT_BYTES = "AMCP_CODE_MAX_RESULT_BYTES";
    static final String MAX_CONSOLE_BYTES = "AMCP_CODE_MAX_CONSOLE_BYTES";
    static final String MAX_CONCURRENT_RUNS = "AMCP_CODE_MAX_CONCURRENT_RUNS";
    static final String CONNECT_TIMEOUT = "AMCP_CODE_RUNNER_CONNECT_TIMEOUT_MS";
    static final String MAX_PENDING_PROPOSALS = "AMCP_CODE_MAX_PENDING_PROPOSALS";
    static final String MAX_PROPOSAL_BYTES = "AMCP_CODE_MAX_PROPOSAL_BYTES";
    static final String DECLARATIONS_MAX_BYTES = "AMCP_CODE_DECLARATIONS_MAX_BYTES";
    static final String RECORD_MAX_BYTES = "AMCP_CODE_RECORD_MAX_BYTES";
    static final String REPLAY_ON_SAVE_RUNS = "AMCP_CODE_REPLAY_ON_SAVE_RUNS";
    static final String APPROVAL_TTL_MINUTES = "AMCP_CODE_APPROVAL_TTL_MINUTES";

    private static final Logger LOG = Logger.getLogger(CodeRunSettings.class.getName());
    private static final int MIB = 1024 * 1024;

    /** Every code-mode setting, checked. */
    public record Values(RunLimits limits, int connectTimeoutMs, int maxConcurrentRuns, int maxPendingProposals,
                         int maxProposalBytes, int declarationsMaxBytes, int recordMaxBytes, int replayOnSaveRuns, int approvalTtlMinutes) {}

    @Inject
    Settings settings;

    private volatile Values values;

    void checkOnStart(@Observes @Priority(Migrations.PRIORITY - 10) Startup startup) {
        try {
            values();
        } catch (IllegalStateException e) {
            LOG.severe("The gateway cannot start: " + e.getMessage());
            throw e;
        }
    }

    public Values values() {
        Values v = values;
        if (v == null) {
            v = read(settings);
            values = v;
        }
        return v;
    }

    public RunLimits limits() {
        return values().limits();
    }

    /** Reads and checks every setting; the first bad one throws an {@link IllegalStateException} naming it. */
    static Values read(Settings settings) {
        RunLimits limits = new RunLimits(
                bounded(settings, TIMEOUT, 10_000, RunLimits.MIN_TIMEOUT_MS, 3_600_000),
                bounded(settings, MEMORY, 128, 16, 16_384),
                bounded(settings, MAX_BRIDGE_CALLS, 200, 0, 100_000),
                bounded(settings, MAX_CONCURRENT_BRIDGE_CALLS, 8, 1, RunBridge.MAX_PENDING_BRIDGE_CALLS),
                bounded(settings, MAX_FRAME_BYTES, MIB, 1024, 64 * MIB),
                bounded(settings, MAX_RESULT_BYTES, MIB, 16, 64 * MIB),
                bounded(settings, MAX_CONSOLE_BYTES, 64 * 1024, 0, 16 * MIB));
        return new Values(limits,
                bounded(settings, CONNECT_TIMEOUT, 3_000, 100, 60_000),
                bounded(settings, MAX_CONCURRENT_RUNS, 16, 1, 10_000),
                bounded(settings, MAX_PENDING_PROPOSALS, 10, 0, 10_000),
                bounded(settings, MAX_PROPOSAL_BYTES, 128 * 1024, 1024, 4 * MIB),
                bounded(settings, DECLARATIONS_MAX_BYTES, 8 * 1024, 1024, 256 * 1024),
                bounded(settings, RECORD_MAX_BYTES, 64 * 1024, 0, 16 * MIB),
                bounded(settings, REPLAY_ON_SAVE_RUNS, 5, 1, 50),
                bounded(settings, APPROVAL_TTL_MINUTES, 60, 1, 10_080));
    }

    private static int bounded(Settings settings, String name, int fallback, int min, int max) {
        long value = settings.getLong(name, fallback);
        if (value < min || value > max) {
            throw new IllegalStateException("Setting " + name + " must be between " + min + " and " + max + ", got " + value);
        }
        return (int) value;
    }
}
