package dev.amcp.gateway.upstreams.entity;

import dev.amcp.gateway.governance.entity.AccessChanges;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One entry of the operator's egress ceiling: a host, {@code host:port}, address, {@code [v6]:port} or CIDR range (as
 * in {@code AMCP_UPSTREAM_ALLOWED_HOSTS}) that workspaces may add upstreams for.
 */
@Entity
@EntityListeners(AccessChanges.class)
@Table(name = "egress_rules")
@NamedQuery(name = EgressRule.ALL, query = "select r from EgressRule r order by r.id")
public class EgressRule {

    public static final String ALL = "EgressRule.all";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private String rule;

    private String note;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected EgressRule() {}

    public EgressRule(String rule, String note, String createdBy) {
        this.rule = rule;
        this.note = note;
        this.createdBy = createdBy;
        this.createdAt = Instant.now();
    }

    public Long getId() {
        return id;
    }

    public String getRule() {
        return rule;
    }

    public String getNote() {
        return note;
    }

    public String getCreatedBy() {
        return createdBy;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }
}
