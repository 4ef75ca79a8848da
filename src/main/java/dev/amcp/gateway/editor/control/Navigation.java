package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.NavItem;
import java.util.List;

/**
 * The editor's navigation. Code-mode pages (code tools' runs, proposals, license) are listed but marked as coming
 * until code mode provides them; flipping {@code available} is all that is needed when their servlets arrive.
 */
public final class Navigation {

    public static final List<NavItem> ITEMS = List.of(
            new NavItem("servers", "nav.servers", "/admin/servers", true),
            new NavItem("tools", "nav.tools", "/admin/tools", true),
            new NavItem("keys", "nav.keys", "/admin/keys", true),
            new NavItem("runs", "nav.runs", "/admin/runs", false),
            new NavItem("proposals", "nav.proposals", "/admin/proposals", false),
            new NavItem("license", "nav.license", "/admin/license", false));

    private Navigation() {}
}
