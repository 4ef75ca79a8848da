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
import java.io.IOException;

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
        PendingSignIn pending;
        try {
            pending = sso.start(sso.redirectUri(EditorRequests.base(request)));
        } catch (OidcCodeFlow.SignInFailed e) {
            EditorRequests.keepOnce(request, REFUSAL, e.reason());
            refused(request, response);
            return;
        }
        EditorRequests.keepStarted(request, PENDING, pending.state(), pending, MAX_PENDING);
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
        return EditorRequests.takeStarted(request, PENDING, state);
    }

    /** Sends the browser to the refusal page, which shows this message once. */
    static void refuse(HttpServletRequest request, HttpServletResponse response, Message refusal) throws IOException {
        EditorRequests.keepOnce(request, REFUSAL, refusal);
        EditorRequests.redirect(request, response, "/admin/sso/refused");
    }
}
