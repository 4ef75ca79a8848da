package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.json.JsonObject;

/**
 * The ceilings of one code run. The gateway sends the runner its share ({@link #startFrameLimits}) and enforces
 * all of them itself, whatever the runner reports.
 */
public record RunLimits(int timeoutMs, int memoryMb, int maxBridgeCalls, int maxConcurrentBridgeCalls,
                        int maxFrameBytes, int maxResultBytes, int maxConsoleBytes) {

    public static final int MIN_TIMEOUT_MS = 100;

    public RunLimits {
        if (timeoutMs < MIN_TIMEOUT_MS || memoryMb < 16 || maxBridgeCalls < 0 || maxConcurrentBridgeCalls < 1
                || maxFrameBytes < 1024 || maxResultBytes < 16 || maxConsoleBytes < 0) {
            throw new IllegalArgumentException("Code run limits out of range: " + this);
        }
    }

    /** The same ceilings with another wall time (what is left of the run's own when the runner gets it). */
    public RunLimits withTimeoutMs(int ms) {
        return new RunLimits(ms, memoryMb, maxBridgeCalls, maxConcurrentBridgeCalls, maxFrameBytes, maxResultBytes, maxConsoleBytes);
    }

    public JsonObject startFrameLimits() {
        return JsonSupport.JSON.createObjectBuilder().add("timeoutMs", timeoutMs).add("memoryMb", memoryMb)
                .add("maxBridgeCalls", maxBridgeCalls).add("maxOutputBytes", maxResultBytes).build();
    }
}
