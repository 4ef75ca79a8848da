package dev.amcp.gateway.editor.entity;

import dev.amcp.gateway.governance.entity.Caller;
import java.util.function.Predicate;

/** One entry of the editor's navigation, shown only to those it is for (everyone signed in, unless said). */
public class NavItem {

    private final String id;
    private final String labelKey;
    private final String path;
    private final Predicate<Caller> shownTo;

    public NavItem(String id, String labelKey, String path) {
        this(id, labelKey, path, caller -> true);
    }

    public NavItem(String id, String labelKey, String path, Predicate<Caller> shownTo) {
        this.id = id;
        this.labelKey = labelKey;
        this.path = path;
        this.shownTo = shownTo;
    }

    public String getId() { return id; }
    public String getLabelKey() { return labelKey; }
    public String getPath() { return path; }

    public boolean isShownTo(Caller caller) {
        return shownTo.test(caller);
    }
}
