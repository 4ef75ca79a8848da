package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Serves the editor's style sheet and script bundle from {@code WEB-INF/assets} (the REST application owns
 * {@code /*}, so static files need a servlet). Only plain file names of known types are served.
 */
@WebServlet("/admin/assets/*")
public class AssetServlet extends HttpServlet {

    private static final Pattern NAME = Pattern.compile("/([a-z0-9-]+)\\.(css|js|svg|txt)");
    private static final Map<String, String> TYPES = Map.of("css", "text/css;charset=UTF-8",
            "js", "text/javascript;charset=UTF-8", "svg", "image/svg+xml", "txt", "text/plain;charset=UTF-8");

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        var m = NAME.matcher(request.getPathInfo() == null ? "" : request.getPathInfo());
        InputStream in = m.matches() ? getServletContext().getResourceAsStream("/WEB-INF/assets" + request.getPathInfo()) : null;
        if (in == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        try (in) {
            response.setContentType(TYPES.get(m.group(2)));
            response.setHeader("Cache-Control", "no-cache");
            in.transferTo(response.getOutputStream());
        }
    }
}
