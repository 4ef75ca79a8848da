package dev.amcp.gateway.editor.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** An editor filter for pages only: static files (scripts, styles) pass it untouched, with no session. */
abstract class PageFilter extends HttpFilter {

    @Override
    protected final void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (EditorRequests.isAsset(request)) {
            chain.doFilter(request, response);
        } else {
            doPage(request, response, chain);
        }
    }

    protected abstract void doPage(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException;
}
