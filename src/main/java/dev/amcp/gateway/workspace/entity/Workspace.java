package dev.amcp.gateway.workspace.entity;

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

/** A tenant. Everything else belongs to exactly one workspace. A disabled workspace's keys and sign-ins stop working. */
@Entity
@Table(name = "workspaces")
@EntityListeners(AccessChanges.class)
@NamedQuery(name = Workspace.BY_SLUG, query = "select w from Workspace w where w.slug = :slug")
@NamedQuery(name = Workspace.COUNT, query = "select count(w) from Workspace w")
@NamedQuery(name = Workspace.ALL, query = "select w from Workspace w order by w.slug")
public class Workspace {

    public static final String BY_SLUG = "Workspace.bySlug";
    public static final String COUNT = "Workspace.count";
    public static final String ALL = "Workspace.all";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, unique = true)
    private String slug;

    @Column(nullable = false)
    private String name;

    private boolean enabled = true;

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
    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public Instant getCreatedAt() { return createdAt; }
}
