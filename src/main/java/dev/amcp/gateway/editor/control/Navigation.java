package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.NavItem;
import java.util.List;

/** The editor's navigation: the workspace's servers, tools and keys, then code mode's runs, proposals and license. */
public final class Navigation {

    public static final List<NavItem> ITEMS = List.of(
            new NavItem("servers", "nav.servers", "/admin/servers"),
            new NavItem("tools", "nav.tools", "/admin/tools"),
            new NavItem("keys", "nav.keys", "/admin/keys"),
            new NavItem("sso", "nav.sso", "/admin/sso-mappings"),
            new NavItem("runs", "nav.runs", "/admin/runs"),
            new NavItem("proposals", "nav.proposals", "/admin/proposals"),
            new NavItem("license", "nav.license", "/admin/license"));

    private Navigation() {}
}
