package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.CsrfTokens;
import dev.amcp.gateway.editor.control.LoginThrottle;
import dev.amcp.gateway.editor.control.OidcCodeFlow;
import dev.amcp.gateway.editor.entity.PendingSignIn;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.control.Texts;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.control.SsoAccounts;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.util.Optional;
import java.util.Set;

/**
 * The editor's sign-in, as a filter on {@code /admin} with two ways in; either way ends in the same login (the user
 * name kept in the session), so nothing downstream knows how a person signed in. Downstream, the request answers
 * {@code getUserPrincipal()}, {@code getRemoteUser()}, {@code isUserInRole("amcp-user")} and {@code logout()} for
 * that login. A protected page sends an anonymous visitor to the login page, remembering where they wanted to go.
 * <ul>
 *   <li><b>Password</b>: the login form's post to its own page ({@code /admin/login}) is checked against the
 *       {@code users} table (PBKDF2, {@link WorkspaceService#passwordSignIn}). The form carries the CSRF token of the
 *       session its page started, so no other site can sign a browser in to an account of its choosing (login
 *       CSRF). Failures are throttled per account and per address ({@link LoginThrottle}); a throttled attempt is
 *       refused without checking the password and the answer carries {@code Retry-After}. With
 *       {@code AMCP_LOCAL_LOGIN=false} only operators (the break-glass accounts) may sign in with a password.</li>
 *   <li><b>Single sign-on</b> (when configured, {@link OidcCodeFlow}): {@link SsoServlet} starts the authorization
 *       code flow; the provider sends the browser back to {@value OidcCodeFlow#CALLBACK_PATH}, handled here. The
 *       {@code state} must be one this session started (each is used once), the ID token must carry its nonce, and
 *       {@link SsoAccounts} decides the account; a refusal goes to a page that says why.</li>
 * </ul>
 * The session id changes at every sign-in against session fixation, and the signed-in session gets a new CSRF token;
 * the browser then goes on to the page it asked for. (The form does not post to {@code j_security_check}: Liberty
 * answers that name itself, with its own form login.)
 * <p>
 * Why a filter and not Jakarta Security: an {@code HttpAuthenticationMechanism} makes Liberty run JASPIC and look the
 * mechanism up through CDI on <em>every</em> request of the module, {@code /mcp}, {@code /api} and the demo upstream
 * included, which have their own bearer authentication ({@code BearerAuthFilter}); that was a fifth of the CPU of an
 * MCP {@code tools/call} (docs/benchmarks.md). As a filter the sign-in costs only editor requests.
 */
public class EditorSignInFilter extends PageFilter {

    static final String TARGET = "amcp.loginTarget";
    /** When a throttled browser may try again (epoch milliseconds), for the login page's message. */
    static final String RETRY_AT = "amcp.loginRetryAt";
    /** The signed-in user's name, in the session. */
    static final String SIGNED_IN = "amcp.signedIn";
    /** Editor paths an anonymous visitor may open. */
    private static final Set<String> PUBLIC = Set.of(EditorSecurity.LOGIN_PAGE, "/admin/sso/start", "/admin/sso/refused", "/admin/lang");

    @Inject
    LoginThrottle throttle;

    @Inject
    OidcCodeFlow sso;

    @Inject
    SsoAccounts ssoAccounts;

    @Inject
    WorkspaceService workspaces;

    @Override
    protected void doPage(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = EditorRequests.path(request);
        SignedInRequest signedIn = new SignedInRequest(request);
        if ("POST".equals(request.getMethod()) && EditorSecurity.LOGIN_PAGE.equals(path)) {
            if (passwordLogin(signedIn, response)) {
                HomeServlet.redirectToTarget(signedIn, response);
            }
            return;
        }
        if ("GET".equals(request.getMethod()) && OidcCodeFlow.CALLBACK_PATH.equals(path)) {
            if (ssoCallback(signedIn, response)) {
                HomeServlet.redirectToTarget(signedIn, response);
            }
            return;
        }
        if (signedIn.getUserPrincipal() == null && !PUBLIC.contains(path)) {
            if ("GET".equals(request.getMethod())) {
                String query = request.getQueryString();
                request.getSession().setAttribute(TARGET, path + (query == null ? "" : "?" + query));
            }
            EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE);
            return;
        }
        chain.doFilter(signedIn, response);
    }

    /** Signs the person in and answers true, or answers the refusal itself and false. */
    private boolean passwordLogin(SignedInRequest request, HttpServletResponse response) throws IOException {
        HttpSession before = request.getSession(false);
        String expected = before == null ? null : (String) before.getAttribute(CsrfTokens.FIELD);
        if (!CsrfTokens.matches(expected, request.getParameter(CsrfTokens.FIELD))) {
            return refuseLogin(request, response, LoginServlet.EXPIRED); // the page shows a fresh form
        }
        String username = request.getParameter("j_username");
        String password = request.getParameter("j_password");
        String address = request.getRemoteAddr();
        long wait = throttle.retryAfterSeconds(username, address);
        if (wait > 0) {
            return throttled(request, response, wait); // the password is not even checked
        }
        Optional<String> account = workspaces.passwordSignIn(username, password);
        if (account.isEmpty()) {
            wait = throttle.failed(username, address);
            return wait > 0 ? throttled(request, response, wait) : refuseLogin(request, response, "true");
        }
        if (!sso.localLogin() && !workspaces.callerForUser(account.get()).map(Caller::operator).orElse(false)) {
            return refuseLogin(request, response, LoginServlet.LOCAL_OFF); // right password, but only operators may use one
        }
        throttle.succeeded(username);
        request.signIn(account.get());
        return true;
    }

    private static boolean refuseLogin(HttpServletRequest request, HttpServletResponse response, String error) throws IOException {
        EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE + "?error=" + error);
        return false;
    }

    private static boolean throttled(HttpServletRequest request, HttpServletResponse response, long seconds) throws IOException {
        request.getSession().setAttribute(RETRY_AT, System.currentTimeMillis() + seconds * 1000);
        response.setHeader("Retry-After", Long.toString(seconds));
        return refuseLogin(request, response, LoginServlet.THROTTLED);
    }

    private boolean ssoCallback(SignedInRequest request, HttpServletResponse response) throws IOException {
        if (!sso.enabled()) {
            EditorRequests.redirect(request, response, EditorSecurity.LOGIN_PAGE);
            return false;
        }
        PendingSignIn pending = SsoServlet.takePending(request, request.getParameter("state")); // each state is used once
        Message refusal;
        if (pending == null) {
            refusal = Message.of("sso.refused.state", "The sign-in took too long or did not start here. Please sign in again.");
        } else if (request.getParameter("error") != null) {
            refusal = Message.of("sso.refused.providerError", "The identity provider did not sign you in ({0}).",
                    Texts.clip(request.getParameter("error"), 100));
        } else {
            try {
                SsoAccounts.Outcome outcome = ssoAccounts.signIn(sso.finish(pending, request.getParameter("code")));
                if (outcome.signedIn()) {
                    request.signIn(outcome.username());
                    return true;
                }
                refusal = outcome.refusal();
            } catch (OidcCodeFlow.SignInFailed e) {
                refusal = e.reason();
            }
        }
        SsoServlet.refuse(request, response, refusal);
        return false;
    }

    /** The editor request as the servlets see it: its login is the session's. */
    static final class SignedInRequest extends HttpServletRequestWrapper {

        private Principal principal;

        SignedInRequest(HttpServletRequest request) {
            super(request);
            HttpSession session = request.getSession(false);
            Object name = session == null ? null : session.getAttribute(SIGNED_IN);
            principal = name instanceof String username ? new EditorPrincipal(username) : null;
        }

        void signIn(String username) {
            changeSessionId();
            HttpSession session = getSession();
            session.setAttribute(SIGNED_IN, username);
            session.setAttribute(CsrfTokens.FIELD, CsrfTokens.newToken()); // the signed-in session gets its own token
            session.removeAttribute(RETRY_AT);
            principal = new EditorPrincipal(username);
        }

        @Override
        public Principal getUserPrincipal() {
            return principal;
        }

        @Override
        public String getRemoteUser() {
            return principal == null ? null : principal.getName();
        }

        @Override
        public boolean isUserInRole(String role) {
            return principal != null && EditorSecurity.USER_ROLE.equals(role);
        }

        @Override
        public String getAuthType() {
            return principal == null ? null : FORM_AUTH;
        }

        @Override
        public void logout() {
            principal = null;
            HttpSession session = getSession(false);
            if (session != null) {
                try {
                    session.removeAttribute(SIGNED_IN);
                } catch (IllegalStateException alreadyInvalidated) {
                    // nothing is left to sign out of
                }
            }
        }
    }

    private record EditorPrincipal(String name) implements Principal {
        @Override
        public String getName() {
            return name;
        }
    }
}
