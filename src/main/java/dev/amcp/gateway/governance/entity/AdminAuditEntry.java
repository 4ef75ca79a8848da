package dev.amcp.gateway.governance.entity;

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

/** A row of the admin audit log: an {@link AdminChange} and when it was made. Rows are never changed. */
@Entity
@Table(name = "admin_audit")
public class AdminAuditEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private Instant at;

    @Column(name = "actor_user_id")
    private Long actorUserId;

    @Column(name = "actor_username", nullable = false)
    private String actorUsername;

    @Column(name = "actor_operator", nullable = false)
    private boolean actorOperator;

    @Column(name = "workspace_id")
    private Long workspaceId;

    @Column(nullable = false)
    private String kind;

    @Column(nullable = false)
    private String subject;

    @Column(nullable = false)
    private String action;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "before_state")
    private JsonObject before;

    @Convert(converter = JsonObjectConverter.class)
    @Column(name = "after_state")
    private JsonObject after;

    protected AdminAuditEntry() {}

    public AdminAuditEntry(AdminChange change, Instant at) {
        this.at = at;
        this.actorUserId = change.actorUserId();
        this.actorUsername = change.actorUsername();
        this.actorOperator = change.actorOperator();
        this.workspaceId = change.workspaceId();
        this.kind = change.kind();
        this.subject = change.subject();
        this.action = change.action();
        this.before = change.before();
        this.after = change.after();
    }

    public Long getId() { return id; }
    public Instant getAt() { return at; }
    public Long getActorUserId() { return actorUserId; }
    public String getActorUsername() { return actorUsername; }
    public boolean isActorOperator() { return actorOperator; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getKind() { return kind; }
    public String getSubject() { return subject; }
    public String getAction() { return action; }
    public JsonObject getBefore() { return before; }
    public JsonObject getAfter() { return after; }
}
