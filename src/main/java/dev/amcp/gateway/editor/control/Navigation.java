package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.NavItem;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import java.util.List;

/**
 * The editor's navigation: the workspace's servers, tools and keys, code mode's runs and proposals, the admins' people,
 * roles and audit log, and the license.
 * An entry is shown only to those it is for ({@link #shownTo(Caller)}); the services' gates still decide what anyone
 * may do, so a hidden entry is a courtesy, never the protection.
 */
public final class Navigation {

    public static final List<NavItem> ITEMS = List.of(
            new NavItem("servers", "nav.servers", "/admin/servers"),
            new NavItem("tools", "nav.tools", "/admin/tools"),
            new NavItem("imports", "nav.imports", "/admin/imports", caller -> caller.has(dev.amcp.gateway.governance.entity.Capability.ADMIN)),
            new NavItem("apis", "nav.apis", "/admin/apis", Navigation::admin),
            new NavItem("upstreams", "nav.upstreams", "/admin/upstream-servers", Navigation::admin),
            new NavItem("keys", "nav.keys", "/admin/keys"),
            new NavItem("connections", "nav.connections", "/admin/connections", caller -> !caller.operator()),
            new NavItem("sso", "nav.sso", "/admin/sso-mappings", caller -> caller.has(Capability.ADMIN)),
            new NavItem("runs", "nav.runs", "/admin/runs"),
            new NavItem("proposals", "nav.proposals", "/admin/proposals"),
            new NavItem("approvals", "nav.approvals", "/admin/approvals", Navigation::admin),
            new NavItem("users", "nav.users", "/admin/users", Navigation::admin),
            new NavItem("roles", "nav.roles", "/admin/roles", Navigation::admin),
            new NavItem("audit", "nav.audit", "/admin/audit", caller -> admin(caller) || caller.operator()),
            new NavItem("egress", "nav.egress", "/admin/egress", Caller::operator),
            new NavItem("license", "nav.license", "/admin/license"));

    private Navigation() {}

    /** A workspace admin: people, roles and the workspace's audit log. */
    static boolean admin(Caller caller) {
        return caller.has(Capability.ADMIN);
    }

    /** The entries this person sees, in order. */
    public static List<NavItem> shownTo(Caller caller) {
        return ITEMS.stream().filter(item -> caller != null && item.isShownTo(caller)).toList();
    }
}
