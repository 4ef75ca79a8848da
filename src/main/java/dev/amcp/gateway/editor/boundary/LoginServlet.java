package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The login page; the form posts to {@code j_security_check}, which {@link EditorAuthenticationMechanism} handles.
 * It sends people back here with {@code error=true} (wrong user name or password) or {@code error=expired} (the
 * form's CSRF token did not match the session).
 */
@WebServlet(EditorSecurity.LOGIN_PAGE)
public class LoginServlet extends HttpServlet {

    static final String EXPIRED = "expired";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getUserPrincipal() != null) {
            EditorRequests.redirect(request, response, "/admin/servers");
            return;
        }
        String error = request.getParameter("error");
        if (error != null) {
            request.setAttribute("loginError", EXPIRED.equals(error) ? "login.expired" : "login.failed");
        }
        request.setAttribute("loggedOut", request.getParameter("loggedOut") != null);
        EditorRequests.render(request, response, "login");
    }
}
