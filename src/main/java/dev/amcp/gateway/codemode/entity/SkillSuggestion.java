package dev.amcp.gateway.codemode.entity;

import dev.amcp.gateway.platform.control.JsonObjectConverter;
import jakarta.json.JsonObject;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A suggestion for admins to review ({@code kg_skill_suggestions}). {@code kind} tells a plain skill apart from a
 * proposed code tool ({@code code_tool}), whose payload holds the code and its {@code uses}.
 */
@Entity
@Table(name = "kg_skill_suggestions")
public class SkillSuggestion {

    public static final String KIND_SKILL = "skill";
    public static final String KIND_CODE_TOOL = "code_tool";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "server_id")
    private Long serverId;

    @Column(nullable = false)
    private String kind;

    @Column(nullable = false)
    private String name;

    private String title;

    private String description;

    @Convert(converter = JsonObjectConverter.class)
    @Column(nullable = false)
    private JsonObject payload;

    @Column(nullable = false)
    private String status = "pending";

    @Column(name = "proposed_by")
    private Long proposedBy;

    @Column(name = "reviewed_by")
    private Long reviewedBy;

    @Column(name = "review_note")
    private String reviewNote;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt = Instant.now();

    @Column(name = "reviewed_at")
    private Instant reviewedAt;

    protected SkillSuggestion() {}

    public SkillSuggestion(Long workspaceId, Long serverId, String kind, String name, JsonObject payload) {
        this.workspaceId = workspaceId;
        this.serverId = serverId;
        this.kind = kind;
        this.name = name;
        this.payload = payload;
    }

    public void review(String status, Long reviewerId, String note) {
        this.status = status;
        this.reviewedBy = reviewerId;
        this.reviewNote = note;
        this.reviewedAt = Instant.now();
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public Long getServerId() { return serverId; }
    public String getKind() { return kind; }
    public String getName() { return name; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public JsonObject getPayload() { return payload; }
    public String getStatus() { return status; }
    public Long getProposedBy() { return proposedBy; }
    public void setProposedBy(Long proposedBy) { this.proposedBy = proposedBy; }
    public Long getReviewedBy() { return reviewedBy; }
    public String getReviewNote() { return reviewNote; }
    public Instant getCreatedAt() { return createdAt; }
    public Instant getReviewedAt() { return reviewedAt; }
}
