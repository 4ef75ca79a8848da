package dev.amcp.gateway.editor.entity;

/**
 * One entry of the editor's navigation.
 *
 * @see #isAvailable() entries of features not installed yet (code mode) are shown as "coming" and not linked
 */
public class NavItem {

    private final String id;
    private final String labelKey;
    private final String path;
    private final boolean available;

    public NavItem(String id, String labelKey, String path, boolean available) {
        this.id = id;
        this.labelKey = labelKey;
        this.path = path;
        this.available = available;
    }

    public String getId() { return id; }
    public String getLabelKey() { return labelKey; }
    public String getPath() { return path; }
    public boolean isAvailable() { return available; }
}
