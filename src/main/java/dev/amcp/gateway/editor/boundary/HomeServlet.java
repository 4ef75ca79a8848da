package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /admin} itself goes to the servers page, and any other unknown editor path is a 404 page. A fresh login goes
 * to the page asked for before it ({@link #redirectToTarget}).
 */
@WebServlet({"/admin", "/admin/*"})
public class HomeServlet extends EditorServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String path = request.getPathInfo();
        if (path == null || "/".equals(path)) {
            EditorRequests.redirect(request, response, "/admin/servers");
        } else {
            notFound(request, response);
        }
    }

    /** Just signed in: go where the person wanted to go before the login page, if that is an editor page. */
    static void redirectToTarget(HttpServletRequest request, HttpServletResponse response) throws IOException {
        var session = request.getSession(false);
        Object target = session == null ? null : session.getAttribute(EditorSignInFilter.TARGET);
        if (session != null) {
            session.removeAttribute(EditorSignInFilter.TARGET);
        }
        EditorRequests.redirect(request, response, LanguageServlet.safeReturnPath(target == null ? null : target.toString()));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        doGet(request, response);
    }
}
