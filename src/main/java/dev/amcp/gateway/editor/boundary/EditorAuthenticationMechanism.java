package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.CsrfTokens;
import dev.amcp.gateway.editor.control.LoginThrottle;
import dev.amcp.gateway.editor.control.OidcCodeFlow;
import dev.amcp.gateway.editor.entity.PendingSignIn;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.workspace.control.SsoAccounts;
import dev.amcp.gateway.workspace.control.WorkspaceService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.AutoApplySession;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.Set;

/**
 * The editor's sign-in, as one Jakarta Security mechanism with two ways in; either way ends in the same login (the
 * user name and the one web role {@value EditorSecurity#USER_ROLE}), so nothing downstream knows how a person signed
 * in. A protected page sends an anonymous visitor to the login page, remembering where they wanted to go.
 * <ul>
 *   <li><b>Password</b>: the login form's post to {@code j_security_check} is checked against the identity store of
 *       {@link EditorSecurity} (the {@code users} table, PBKDF2). The form carries the CSRF token of the session its
 *       page started, so no other site can sign a browser in to an account of its choosing (login CSRF). Failures are
 *       throttled per account and per address ({@link LoginThrottle}); a throttled attempt is refused without checking
 *       the password and the answer carries {@code Retry-After}. With {@code AMCP_LOCAL_LOGIN=false} only operators
 *       (the break-glass accounts) may sign in with a password.</li>
 *   <li><b>Single sign-on</b> (when configured, {@link OidcCodeFlow}): {@link SsoServlet} starts the authorization
 *       code flow; the provider sends the browser back to {@value OidcCodeFlow#CALLBACK_PATH}, handled here. The
 *       {@code state} must be one this session started (each is used once), the ID token must carry its nonce, and
 *       {@link SsoAccounts} decides the account; a refusal goes to a page that says why.</li>
 * </ul>
 * The session id changes at every sign-in against session fixation, and the signed-in session gets a new CSRF token.
 * The login is kept in the session ({@link AutoApplySession}).
 * <p>
 * It is written out rather than declared with {@code @FormAuthenticationMechanismDefinition} or
 * {@code @OpenIdAuthenticationMechanismDefinition}: Open Liberty 26.0.0.5 (Jakarta Security 4.0) did not register the
 * built-in form mechanism for this module ("CWWKS2604E"), and a built-in OpenID mechanism would be the module's only
 * mechanism, replacing the form login instead of standing beside it. Only {@code /admin} is protected, so the REST and
 * MCP endpoints are never redirected here.
 */
@ApplicationScoped
@AutoApplySession
public class EditorAuthenticationMechanism implements HttpAuthenticationMechanism {

    static final String TARGET = "amcp.loginTarget";
    /** When a throttled browser may try again (epoch milliseconds), for the login page's message. */
    static final String RETRY_AT = "amcp.loginRetryAt";

    @Inject
    IdentityStoreHandler identityStores;

    @Inject
    LoginThrottle throttle;

    @Inject
    OidcCodeFlow sso;

    @Inject
    SsoAccounts ssoAccounts;

    @Inject
    WorkspaceService workspaces;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String login = request.getContextPath() + EditorSecurity.LOGIN_PAGE;
        if ("POST".equals(request.getMethod()) && request.getRequestURI().endsWith("/j_security_check")) {
            return passwordLogin(request, response, context, login);
        }
        if ("GET".equals(request.getMethod()) && request.getRequestURI().equals(request.getContextPath() + OidcCodeFlow.CALLBACK_PATH)) {
            return ssoCallback(request, context, login);
        }
        if (context.isProtected() && request.getUserPrincipal() == null) {
            if ("GET".equals(request.getMethod())) {
                String query = request.getQueryString();
                request.getSession().setAttribute(TARGET,
                        request.getRequestURI().substring(request.getContextPath().length()) + (query == null ? "" : "?" + query));
            }
            return context.redirect(login);
        }
        return context.doNothing();
    }

    private AuthenticationStatus passwordLogin(HttpServletRequest request, HttpServletResponse response, HttpMessageContext context,
                                               String login) {
        HttpSession before = request.getSession(false);
        String expected = before == null ? null : (String) before.getAttribute(CsrfTokens.FIELD);
        if (!CsrfTokens.matches(expected, request.getParameter(CsrfTokens.FIELD))) {
            return context.redirect(login + "?error=" + LoginServlet.EXPIRED); // the page shows a fresh form
        }
        String username = request.getParameter("j_username");
        String password = request.getParameter("j_password");
        String address = request.getRemoteAddr();
        long wait = throttle.retryAfterSeconds(username, address);
        if (wait > 0) {
            return throttled(request, response, context, login, wait); // the password is not even checked
        }
        CredentialValidationResult result = username == null || password == null || username.isBlank()
                ? CredentialValidationResult.INVALID_RESULT
                : identityStores.validate(new UsernamePasswordCredential(username.strip(), password));
        if (result.getStatus() != CredentialValidationResult.Status.VALID) {
            wait = throttle.failed(username, address);
            return wait > 0 ? throttled(request, response, context, login, wait) : context.redirect(login + "?error=true");
        }
        if (!sso.localLogin() && !workspaces.callerForUser(result.getCallerPrincipal().getName()).map(Caller::operator).orElse(false)) {
            return context.redirect(login + "?error=" + LoginServlet.LOCAL_OFF); // right password, but only operators may use one
        }
        throttle.succeeded(username);
        return signIn(request, context, result);
    }

    private static AuthenticationStatus throttled(HttpServletRequest request, HttpServletResponse response, HttpMessageContext context,
                                                  String login, long seconds) {
        request.getSession().setAttribute(RETRY_AT, System.currentTimeMillis() + seconds * 1000);
        response.setHeader("Retry-After", Long.toString(seconds));
        return context.redirect(login + "?error=" + LoginServlet.THROTTLED);
    }

    private AuthenticationStatus ssoCallback(HttpServletRequest request, HttpMessageContext context, String login) {
        if (!sso.enabled()) {
            return context.redirect(login);
        }
        PendingSignIn pending = SsoServlet.takePending(request, request.getParameter("state")); // each state is used once
        Message refusal;
        if (pending == null) {
            refusal = Message.of("sso.refused.state", "The sign-in took too long or did not start here. Please sign in again.");
        } else if (request.getParameter("error") != null) {
            refusal = Message.of("sso.refused.providerError", "The identity provider did not sign you in ({0}).",
                    clip(request.getParameter("error")));
        } else {
            try {
                SsoAccounts.Outcome outcome = ssoAccounts.signIn(sso.finish(pending, request.getParameter("code")));
                if (outcome.signedIn()) {
                    return signIn(request, context, new CredentialValidationResult(outcome.username(), Set.of(EditorSecurity.USER_ROLE)));
                }
                refusal = outcome.refusal();
            } catch (OidcCodeFlow.SignInFailed e) {
                refusal = e.reason();
            }
        }
        return SsoServlet.refuse(request, context, refusal);
    }

    private static AuthenticationStatus signIn(HttpServletRequest request, HttpMessageContext context, CredentialValidationResult result) {
        request.changeSessionId();
        request.getSession().setAttribute(CsrfTokens.FIELD, CsrfTokens.newToken()); // the signed-in session gets its own token
        request.getSession().removeAttribute(RETRY_AT);
        return context.notifyContainerAboutLogin(result); // continues to the requested path, which redirects to the target
    }

    private static String clip(String text) {
        return text.length() > 100 ? text.substring(0, 100) + "…" : text;
    }
}
