package dev.amcp.gateway.audit.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * What a run needs to be replayed: the code it ran and a document with its input, its return value and each
 * {@code amcp.run} call (tool, canonical arguments, result), each part capped in size when it was recorded. Its shape
 * is owned by code mode's {@code RunRecording}; the audit only stores it next to the run's row.
 */
@Entity
@Table(name = "code_run_recordings")
public class CodeRunRecording {

    @Id
    @Column(name = "run_id")
    private String runId;

    @Column(nullable = false)
    private String code;

    @Convert(converter = JsonObjectConverter.class)
    @Column(nullable = false)
    private JsonObject recording;

    protected CodeRunRecording() {}

    public CodeRunRecording(String runId, String code, JsonObject recording) {
        this.runId = runId;
        this.code = code;
        this.recording = recording;
    }

    public String getRunId() { return runId; }
    public String getCode() { return code; }
    public JsonObject getRecording() { return recording; }
}
