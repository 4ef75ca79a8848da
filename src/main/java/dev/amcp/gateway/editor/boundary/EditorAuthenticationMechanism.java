package dev.amcp.gateway.editor.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import dev.amcp.gateway.editor.control.CsrfTokens;
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

/**
 * Form login of the editor as a Jakarta Security mechanism: a protected page sends an anonymous visitor to the
 * login page (remembering where they wanted to go), and the login form's post to {@code j_security_check} is checked
 * against the identity store of {@link EditorSecurity} (the {@code users} table, PBKDF2). The login is kept in the
 * session ({@link AutoApplySession}); the session id changes at login against session fixation. The login form
 * carries the CSRF token of the session its page started, so no other site can sign a browser in to an account of
 * its choosing (login CSRF); the signed-in session then gets a new token.
 * <p>
 * It is written out rather than declared with {@code @FormAuthenticationMechanismDefinition}, because Open Liberty
 * 26.0.0.5 (Jakarta Security 4.0) did not register the built-in form mechanism for this module ("CWWKS2604E"). Only
 * {@code /admin} is protected, so the REST and MCP endpoints are never redirected here.
 */
@ApplicationScoped
@AutoApplySession
public class EditorAuthenticationMechanism implements HttpAuthenticationMechanism {

    static final String TARGET = "amcp.loginTarget";

    @Inject
    IdentityStoreHandler identityStores;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String login = request.getContextPath() + EditorSecurity.LOGIN_PAGE;
        if ("POST".equals(request.getMethod()) && request.getRequestURI().endsWith("/j_security_check")) {
            HttpSession before = request.getSession(false);
            String expected = before == null ? null : (String) before.getAttribute(CsrfTokens.FIELD);
            if (!CsrfTokens.matches(expected, request.getParameter(CsrfTokens.FIELD))) {
                return context.redirect(login + "?error=" + LoginServlet.EXPIRED); // the page shows a fresh form
            }
            String username = request.getParameter("j_username");
            String password = request.getParameter("j_password");
            CredentialValidationResult result = username == null || password == null || username.isBlank()
                    ? CredentialValidationResult.INVALID_RESULT
                    : identityStores.validate(new UsernamePasswordCredential(username.strip(), password));
            if (result.getStatus() != CredentialValidationResult.Status.VALID) {
                return context.redirect(login + "?error=true");
            }
            request.changeSessionId();
            request.getSession().setAttribute(CsrfTokens.FIELD, CsrfTokens.newToken()); // the signed-in session gets its own token
            return context.notifyContainerAboutLogin(result); // continues to /admin/j_security_check, which redirects
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
}
