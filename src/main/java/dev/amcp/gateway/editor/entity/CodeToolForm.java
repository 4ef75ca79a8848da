package dev.amcp.gateway.editor.entity;

import java.util.ArrayList;
import java.util.List;

/** The code tool form exactly as the person typed it, so a page with errors shows their input again. */
public class CodeToolForm {

    private Long id;
    private String server = "";
    private String name = "";
    private String title = "";
    private String description = "";
    private String inputSchema = "{\n  \"type\": \"object\",\n  \"properties\": {}\n}";
    private String code = "";
    private List<String> uses = new ArrayList<>();
    private String runAs = "invoker";
    private boolean allowWrites;
    private boolean requireReplay;
    private String approval = "role";

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public String getServer() { return server; }
    public void setServer(String server) { this.server = server; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public String getInputSchema() { return inputSchema; }
    public void setInputSchema(String inputSchema) { this.inputSchema = inputSchema; }
    public String getCode() { return code; }
    public void setCode(String code) { this.code = code; }
    public List<String> getUses() { return uses; }
    public void setUses(List<String> uses) { this.uses = new ArrayList<>(uses); }
    public String getRunAs() { return runAs; }
    public void setRunAs(String runAs) { this.runAs = runAs; }
    public boolean isAllowWrites() { return allowWrites; }
    public void setAllowWrites(boolean allowWrites) { this.allowWrites = allowWrites; }
    public boolean isRequireReplay() { return requireReplay; }
    public String getApproval() { return approval; }
    public void setApproval(String approval) { this.approval = approval; }
    public void setRequireReplay(boolean requireReplay) { this.requireReplay = requireReplay; }
}
