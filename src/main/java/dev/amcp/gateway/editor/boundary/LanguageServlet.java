package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorLocales;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The language switcher: remembers the choice in a cookie that overrides {@code Accept-Language}. */
@WebServlet("/admin/lang")
public class LanguageServlet extends HttpServlet {

    private static final int ONE_YEAR = 365 * 24 * 3600;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String lang = request.getParameter("lang");
        if (EditorLocales.supported(lang)) {
            EditorRequests.setCookie(request, response, EditorLocales.COOKIE, lang, ONE_YEAR, EditorRequests.isSecure(request));
        }
        EditorRequests.redirect(request, response, safeReturnPath(request.getParameter("back")));
    }

    /** Only paths inside the editor, so the switcher cannot be used as an open redirect. */
    static String safeReturnPath(String back) {
        if (back == null || !back.startsWith("/admin") || back.contains("//") || back.contains("\\")
                || back.chars().anyMatch(Character::isISOControl)) {
            return "/admin/servers";
        }
        return back;
    }
}
