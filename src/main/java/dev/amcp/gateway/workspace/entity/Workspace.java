package dev.amcp.gateway.workspace.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/** A tenant. Everything else belongs to exactly one workspace. */
@Entity
@Table(name = "workspaces")
@NamedQuery(name = Workspace.BY_SLUG, query = "select w from Workspace w where w.slug = :slug")
@NamedQuery(name = Workspace.COUNT, query = "select count(w) from Workspace w")
public class Workspace {

    public static final String BY_SLUG = "Workspace.bySlug";
    public static final String COUNT = "Workspace.count";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, unique = true)
    private String slug;

    @Column(nullable = false)
    private String name;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected Workspace() {}

    public Workspace(String slug, String name) {
        this.slug = slug;
        this.name = name;
    }

    public Long getId() { return id; }
    public String getSlug() { return slug; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Instant getCreatedAt() { return createdAt; }
}
