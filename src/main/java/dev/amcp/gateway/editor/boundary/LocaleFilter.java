package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorLocales;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;

/** Picks the page language: the switcher's cookie, else {@code Accept-Language}, else English. */
public class LocaleFilter extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String chosen = EditorRequests.cookie(request, EditorLocales.COOKIE);
        Locale locale = EditorLocales.resolve(chosen, request.getLocales());
        request.setAttribute(EditorRequests.LOCALE, locale);
        request.setAttribute("lang", locale.getLanguage());
        request.setAttribute("languages", EditorLocales.SUPPORTED);
        chain.doFilter(request, response);
    }
}
