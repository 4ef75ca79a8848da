package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.OidcCodeFlow;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The login page: the password form, which posts to this page ({@link EditorSignInFilter} answers the post),
 * and the single sign-on button when it is configured. With {@code AMCP_LOCAL_LOGIN=false} the password form is folded
 * away as the operators' way in. The sign-in filter sends people back here with {@code error=true} (wrong user name or
 * password), {@code error=expired} (the form's CSRF token did not match the session), {@code error=throttled} (too
 * many failures: answered with 429 and {@code Retry-After} while the wait lasts) or {@code error=local} (passwords
 * are for operators only).
 */
@WebServlet(EditorSecurity.LOGIN_PAGE)
public class LoginServlet extends HttpServlet {

    static final String EXPIRED = "expired";
    static final String THROTTLED = "throttled";
    static final String LOCAL_OFF = "local";

    @Inject
    OidcCodeFlow sso;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getUserPrincipal() != null) {
            EditorRequests.redirect(request, response, "/admin/servers");
            return;
        }
        String error = request.getParameter("error");
        if (THROTTLED.equals(error)) {
            var session = request.getSession(false);
            Object retryAt = session == null ? null : session.getAttribute(EditorSignInFilter.RETRY_AT);
            long seconds = retryAt instanceof Long at ? (at - System.currentTimeMillis() + 999) / 1000 : 0;
            if (seconds > 0) {
                response.setStatus(429);
                response.setHeader("Retry-After", Long.toString(seconds));
                request.setAttribute("loginError", "login.throttled");
                request.setAttribute("retrySeconds", seconds);
            }
        } else if (error != null) {
            request.setAttribute("loginError", EXPIRED.equals(error) ? "login.expired" : LOCAL_OFF.equals(error) ? "login.localOff" : "login.failed");
        }
        request.setAttribute("loggedOut", request.getParameter("loggedOut") != null);
        request.setAttribute("ssoEnabled", sso.enabled());
        request.setAttribute("localLogin", sso.localLogin() || !sso.enabled());
        EditorRequests.render(request, response, "login");
    }
}
