package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /admin} itself goes to the servers page; any other unknown editor path is a 404 page. */
@WebServlet({"/admin", "/admin/*"})
public class HomeServlet extends EditorServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String path = request.getPathInfo();
        if (path == null || "/".equals(path) || "/j_security_check".equals(path)) {
            EditorRequests.redirect(request, response, "/admin/servers");
        } else {
            notFound(request, response);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        doGet(request, response);
    }
}
