package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The login page; the form posts to {@code j_security_check}, which Jakarta Security's form mechanism handles. */
@WebServlet(EditorSecurity.LOGIN_PAGE)
public class LoginServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getUserPrincipal() != null) {
            EditorRequests.redirect(request, response, "/admin/servers");
            return;
        }
        request.setAttribute("loginFailed", request.getParameter("error") != null);
        request.setAttribute("loggedOut", request.getParameter("loggedOut") != null);
        EditorRequests.render(request, response, "login");
    }
}
