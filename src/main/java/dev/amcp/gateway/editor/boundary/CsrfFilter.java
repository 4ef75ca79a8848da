package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.CsrfTokens;
import dev.amcp.gateway.editor.control.EditorMessages;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Locale;

/**
 * Every editor request gets the session's CSRF token as the request attribute {@code csrf}, for the hidden field
 * of each form; every state-changing request must send it back, or it is refused with 403 before any servlet runs.
 */
public class CsrfFilter extends PageFilter {

    @Override
    protected void doPage(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        boolean safe = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        if (safe) {
            HttpSession session = request.getSession();
            String token = (String) session.getAttribute(CsrfTokens.FIELD);
            if (token == null) {
                token = CsrfTokens.newToken();
                session.setAttribute(CsrfTokens.FIELD, token);
            }
            request.setAttribute("csrf", token);
            chain.doFilter(request, response);
            return;
        }
        HttpSession session = request.getSession(false);
        String expected = session == null ? null : (String) session.getAttribute(CsrfTokens.FIELD);
        if (!CsrfTokens.matches(expected, request.getParameter(CsrfTokens.FIELD))) {
            Locale locale = (Locale) request.getAttribute(EditorRequests.LOCALE);
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN,
                    EditorMessages.get(locale, "error.csrf"));
            return;
        }
        request.setAttribute("csrf", expected);
        chain.doFilter(request, response);
    }
}
