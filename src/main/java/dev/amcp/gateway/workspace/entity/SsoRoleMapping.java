package dev.amcp.gateway.workspace.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One row of a workspace's single sign-on mapping: people whose role claim (a group, by default) holds
 * {@code claimValue} belong to this workspace with this role.
 */
@Entity
@Table(name = "sso_role_mappings")
@NamedQuery(name = SsoRoleMapping.BY_WORKSPACE,
        query = "select m from SsoRoleMapping m where m.workspaceId = :workspaceId order by m.claimValue")
@NamedQuery(name = SsoRoleMapping.BY_CLAIM_VALUES,
        query = "select m from SsoRoleMapping m where m.claimValue in :values order by m.workspaceId, m.claimValue")
@NamedQuery(name = SsoRoleMapping.COUNT_BY_ROLE, query = "select count(m) from SsoRoleMapping m where m.roleId = :roleId")
public class SsoRoleMapping {

    public static final String BY_WORKSPACE = "SsoRoleMapping.byWorkspace";
    public static final String BY_CLAIM_VALUES = "SsoRoleMapping.byClaimValues";
    public static final String COUNT_BY_ROLE = "SsoRoleMapping.countByRole";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "workspace_id", nullable = false)
    private Long workspaceId;

    @Column(name = "claim_value", nullable = false)
    private String claimValue;

    @Column(name = "role_id", nullable = false)
    private Long roleId;

    @Column(name = "created_at", insertable = false, updatable = false)
    private Instant createdAt;

    protected SsoRoleMapping() {}

    public SsoRoleMapping(Long workspaceId, String claimValue, Long roleId) {
        this.workspaceId = workspaceId;
        this.claimValue = claimValue;
        this.roleId = roleId;
    }

    public Long getId() { return id; }
    public Long getWorkspaceId() { return workspaceId; }
    public String getClaimValue() { return claimValue; }
    public Long getRoleId() { return roleId; }
    public void setRoleId(Long roleId) { this.roleId = roleId; }
    public Instant getCreatedAt() { return createdAt; }
}
