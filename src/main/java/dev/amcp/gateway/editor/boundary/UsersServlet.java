package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.AdminForms;
import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Role;
import dev.amcp.gateway.workspace.control.ApiKeyService;
import dev.amcp.gateway.workspace.control.KeyAdministration;
import dev.amcp.gateway.workspace.control.UserAdministration;
import dev.amcp.gateway.workspace.entity.ApiKey;
import dev.amcp.gateway.workspace.entity.UserChange;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * People of the workspace, for its admins: the list with the add form, a person's role and password, enable and
 * disable; and a person's API keys (mint, shown once; revoke), which members open for themselves. Everything goes
 * through the services of the REST API ({@link UserAdministration}, {@link KeyAdministration}) and their gates.
 */
@WebServlet({"/admin/users", "/admin/users/*"})
public class UsersServlet extends EditorServlet {

    private static final String NEW_KEY = "amcp.newUserKey";

    @Inject
    UserAdministration users;

    @Inject
    KeyAdministration keys;

    private final EditorRoutes<String> routes = EditorRoutes.<String>keyed((caller, username) -> username)
            .get("", (request, response, caller) -> list(request, response, caller, new WorkspaceDraft.AccountDraft("", "", null, ""), "", null))
            .post("", this::create)
            .getItem("", (request, response, caller, username) -> edit(request, response, caller, username, null))
            .postItem("", this::update)
            .postItem("enable", (request, response, caller, username) -> setEnabled(request, response, caller, username, true))
            .postItem("disable", (request, response, caller, username) -> setEnabled(request, response, caller, username, false))
            .getItem("keys", (request, response, caller, username) -> keys(request, response, caller, username, "", "", Map.of(), null))
            .postItem("keys", this::mint)
            .postItem("keys/revoke", this::revoke)
            .refusedWith("users.adminsOnly");

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void list(HttpServletRequest request, HttpServletResponse response, Caller caller, WorkspaceDraft.AccountDraft typed,
                      String role, String formError) throws ServletException, IOException {
        request.setAttribute("users", users.list(caller));
        request.setAttribute("roles", workspaces.roles(caller.workspaceId()).stream().map(Role::getName).toList());
        request.setAttribute("typed", typed);
        request.setAttribute("typedRole", role.isEmpty() ? Role.MEMBER : role);
        request.setAttribute("formError", formError);
        request.setAttribute("active", "users");
        render(request, response, "users");
    }

    private void create(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        WorkspaceDraft.AccountDraft account = AdminForms.account(request::getParameter);
        String role = AdminForms.trim(request.getParameter("role"));
        try {
            UserAdministration.Member created = users.create(caller, account, role.isEmpty() ? null : role);
            EditorRequests.flash(request, msg(request, "users.created", created.user().getUsername()));
            EditorRequests.redirect(request, response, "/admin/users");
        } catch (IllegalArgumentException e) {
            list(request, response, caller, account, role, refusal(request, response, e));
        }
    }

    private void edit(HttpServletRequest request, HttpServletResponse response, Caller caller, String username, String formError)
            throws ServletException, IOException {
        Optional<UserAdministration.Member> member = member(caller, username);
        if (member.isEmpty()) {
            notFound(request, response);
            return;
        }
        request.setAttribute("member", member.get());
        request.setAttribute("roles", workspaces.roles(caller.workspaceId()).stream().map(Role::getName).toList());
        request.setAttribute("formError", formError);
        request.setAttribute("active", "users");
        render(request, response, "user-form");
    }

    private void update(HttpServletRequest request, HttpServletResponse response, Caller caller, String username)
            throws ServletException, IOException {
        change(request, response, caller, username, AdminForms.userChange(request::getParameter), "users.saved");
    }

    private void setEnabled(HttpServletRequest request, HttpServletResponse response, Caller caller, String username, boolean enabled)
            throws ServletException, IOException {
        change(request, response, caller, username, new UserChange(null, enabled, null), enabled ? "users.enabled" : "users.disabled");
    }

    /** One change through the service; its refusal is shown on the person's page, with nothing changed. */
    private void change(HttpServletRequest request, HttpServletResponse response, Caller caller, String username, UserChange change,
                        String doneKey) throws ServletException, IOException {
        try {
            if (users.update(caller, username, change).isEmpty()) {
                notFound(request, response);
                return;
            }
            EditorRequests.flash(request, msg(request, doneKey, username));
            EditorRequests.redirect(request, response, "/admin/users/" + path(username));
        } catch (IllegalArgumentException e) {
            edit(request, response, caller, username, refusal(request, response, e));
        }
    }

    private void keys(HttpServletRequest request, HttpServletResponse response, Caller caller, String username, String name,
                      String expires, Map<String, String> errors, String formError) throws ServletException, IOException {
        Optional<List<ApiKey>> found;
        try {
            found = keys.list(caller, username);
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, e.reason()));
            return;
        }
        if (found.isEmpty()) {
            notFound(request, response);
            return;
        }
        request.setAttribute("owner", username);
        request.setAttribute("keys", found.get());
        request.setAttribute("newKey", EditorRequests.takeOnce(request, NEW_KEY));
        request.setAttribute("keyName", name);
        request.setAttribute("keyExpires", expires);
        request.setAttribute("errors", errors);
        request.setAttribute("formError", formError);
        request.setAttribute("now", Instant.now());
        request.setAttribute("active", caller.username().equals(username) ? "" : "users");
        render(request, response, "user-keys");
    }

    private void mint(HttpServletRequest request, HttpServletResponse response, Caller caller, String username)
            throws ServletException, IOException {
        String name = AdminForms.trim(request.getParameter("name"));
        String expires = AdminForms.trim(request.getParameter("expiresAt"));
        Map<String, String> errors = new LinkedHashMap<>();
        Instant expiresAt = AdminForms.expiry(expires, locale(request), errors);
        if (!errors.isEmpty()) {
            response.setStatus(422);
            keys(request, response, caller, username, name, expires, errors, msg(request, "error.fixFields"));
            return;
        }
        try {
            Optional<ApiKeyService.IssuedKey> issued = keys.issue(caller, username, name.isEmpty() ? null : name, expiresAt);
            if (issued.isEmpty()) {
                notFound(request, response);
                return;
            }
            EditorRequests.keepOnce(request, NEW_KEY, issued.get().plaintext());
            EditorRequests.redirect(request, response, "/admin/users/" + path(username) + "/keys");
        } catch (IllegalArgumentException e) {
            keys(request, response, caller, username, name, expires, Map.of(), refusal(request, response, e));
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, e.reason()));
        }
    }

    private void revoke(HttpServletRequest request, HttpServletResponse response, Caller caller, String username)
            throws ServletException, IOException {
        long id;
        try {
            id = Long.parseLong(AdminForms.trim(request.getParameter("id")));
        } catch (NumberFormatException e) {
            notFound(request, response);
            return;
        }
        try {
            if (!keys.revoke(caller, username, id)) {
                notFound(request, response);
                return;
            }
            EditorRequests.flash(request, msg(request, "keys.revoked"));
            EditorRequests.redirect(request, response, "/admin/users/" + path(username) + "/keys");
        } catch (GateRefusedException e) {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, e.reason()));
        }
    }

    /** The person of this name in the caller's workspace, through the admins' service (which gates it). */
    private Optional<UserAdministration.Member> member(Caller caller, String username) {
        return users.list(caller).stream().filter(m -> m.user().getUsername().equals(username)).findFirst();
    }

    private static String path(String username) {
        return URLEncoder.encode(username, StandardCharsets.UTF_8);
    }
}
