package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorMessages;
import dev.amcp.gateway.editor.control.OidcCodeFlow;
import dev.amcp.gateway.editor.entity.PendingSignIn;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Single sign-on pages: {@code /admin/sso/start} sends the browser to the identity provider (the sign-in started is
 * kept in the session, see {@link PendingSignIn}); {@code /admin/sso/callback} is {@link EditorSignInFilter}'s; {@code /admin/sso/refused} says, in the page's language
 * and with status 403, why a sign-in was refused.
 */
@WebServlet("/admin/sso/*")
public class SsoServlet extends HttpServlet {

    private static final String PENDING = "amcp.sso.pending";
    private static final String REFUSAL = "amcp.sso.refusal";
    /** Sign-ins one session may have started at once (tabs); older ones are dropped. */
    private static final int MAX_PENDING = 5;

    @Inject
    OidcCodeFlow sso;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String path = request.getPathInfo();
        if ("/start".equals(path) && sso.enabled()) {
            start(request, response);
        } else if ("/refused".equals(path)) {
            refused(request, response);
        } else {
            EditorRequests.renderError(request, response, HttpServletResponse.SC_NOT_FOUND,
                    EditorMessages.get(EditorRequests.locale(request), "error.notFound"));
        }
    }

    private void start(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (request.getUserPrincipal() != null) {
            EditorRequests.redirect(request, response, "/admin/servers");
            return;
        }
        String base = request.getRequestURL().toString();
        base = base.substring(0, base.length() - request.getRequestURI().length()) + request.getContextPath();
        PendingSignIn pending;
        try {
            pending = sso.start(sso.redirectUri(base));
        } catch (OidcCodeFlow.SignInFailed e) {
            EditorRequests.keepOnce(request, REFUSAL, e.reason());
            refused(request, response);
            return;
        }
        HttpSession session = request.getSession();
        synchronized (SsoServlet.class) {
            @SuppressWarnings("unchecked")
            Map<String, PendingSignIn> started = (Map<String, PendingSignIn>) session.getAttribute(PENDING);
            Map<String, PendingSignIn> next = started == null ? new LinkedHashMap<>() : new LinkedHashMap<>(started);
            next.put(pending.state(), pending);
            while (next.size() > MAX_PENDING) {
                next.remove(next.keySet().iterator().next());
            }
            session.setAttribute(PENDING, next);
        }
        response.sendRedirect(pending.authorizationUrl());
    }

    private static void refused(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!(EditorRequests.takeOnce(request, REFUSAL) instanceof Message message)) {
            EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        request.setAttribute("refusal", EditorMessages.get(EditorRequests.locale(request), message));
        EditorRequests.render(request, response, "sso-refused");
    }

    /** The sign-in this session started with this state, removed so that it is used once; {@code null} if none. */
    static PendingSignIn takePending(HttpServletRequest request, String state) {
        HttpSession session = request.getSession(false);
        if (session == null || state == null) {
            return null;
        }
        synchronized (SsoServlet.class) {
            @SuppressWarnings("unchecked")
            Map<String, PendingSignIn> started = (Map<String, PendingSignIn>) session.getAttribute(PENDING);
            if (started == null || !started.containsKey(state)) {
                return null;
            }
            Map<String, PendingSignIn> rest = new LinkedHashMap<>(started);
            PendingSignIn pending = rest.remove(state);
            session.setAttribute(PENDING, rest);
            return pending;
        }
    }

    /** Sends the browser to the refusal page, which shows this message once. */
    static void refuse(HttpServletRequest request, HttpServletResponse response, Message refusal) throws IOException {
        EditorRequests.keepOnce(request, REFUSAL, refusal);
        EditorRequests.redirect(request, response, "/admin/sso/refused");
    }
}
