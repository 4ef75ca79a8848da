package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.Settings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@link RequestBodyLimit}'s cap for servlet pages (the editor's forms), which the servlet container parses itself:
 * a declared length over {@code AMCP_MAX_BODY_BYTES} is a 413, and a body without a declared length (which a
 * browser's form never sends) a 411, so no form body is read past the cap. Mapped in {@code web.xml}.
 */
public class FormBodyLimitFilter extends HttpFilter {

    @Inject
    Settings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long max = RequestBodyLimit.max(settings);
        long length = request.getContentLengthLong();
        boolean chunked = length < 0 && request.getHeader("Transfer-Encoding") != null;
        if (length > max || chunked) {
            response.setStatus(chunked ? HttpServletResponse.SC_LENGTH_REQUIRED : HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write(chunked ? "A request body needs a Content-Length here" : RequestBodyLimit.tooLargeMessage(max));
            return;
        }
        chain.doFilter(request, response);
    }
}
