package dev.amcp.gateway.editor.entity;

/** One entry of the editor's navigation. */
public class NavItem {

    private final String id;
    private final String labelKey;
    private final String path;

    public NavItem(String id, String labelKey, String path) {
        this.id = id;
        this.labelKey = labelKey;
        this.path = path;
    }

    public String getId() { return id; }
    public String getLabelKey() { return labelKey; }
    public String getPath() { return path; }
}
