package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Signs out (POST with the CSRF token only): ends the login and the session. */
@WebServlet("/admin/logout")
public class LogoutServlet extends HttpServlet {

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        var session = request.getSession(false);
        if (session != null) {
            session.invalidate(); // first: once logged out, Liberty no longer lets this request touch the user's session
        }
        request.logout();
        EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE + "?loggedOut=true");
    }
}
