package dev.amcp.gateway.editor.entity;

import java.util.Set;
import java.util.TreeSet;

/** The server form as typed, with the chosen role ids. */
public class ServerForm {

    private Long id;
    private String slug = "";
    private String name = "";
    private String description = "";
    private String codeMode = "off";
    private Set<Long> roleIds = new TreeSet<>();

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public String getSlug() { return slug; }
    public void setSlug(String slug) { this.slug = slug; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public String getCodeMode() { return codeMode; }
    public void setCodeMode(String codeMode) { this.codeMode = codeMode; }
    public Set<Long> getRoleIds() { return roleIds; }
    public void setRoleIds(Set<Long> roleIds) { this.roleIds = new TreeSet<>(roleIds); }
}
