package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Security headers on every editor response. The content security policy allows scripts and styles only from the
 * gateway itself (no inline script, no CDN), and no framing. The one exception is a per-response style nonce, which
 * pages hand to CodeMirror ({@code EditorView.cspNonce}) for the style element it writes its own styles into.
 */
public class SecurityHeadersFilter extends HttpFilter {

    /** The policy; {@code %s} is the response's style nonce. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-%s'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    static final String STYLE_NONCE = "styleNonce";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String nonce = dev.amcp.gateway.editor.control.CsrfTokens.newToken();
        request.setAttribute(STYLE_NONCE, nonce);
        response.setHeader("Content-Security-Policy", CSP.formatted(nonce));
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        if (EditorRequests.isSecure(request)) {
            response.setHeader("Strict-Transport-Security", "max-age=31536000");
        }
        if (!EditorRequests.isAsset(request)) {
            response.setHeader("Cache-Control", "no-store");
        }
        chain.doFilter(request, response);
    }
}
