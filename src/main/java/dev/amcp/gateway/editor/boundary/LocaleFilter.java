package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorLocales;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/** Picks the page language: the switcher's cookie, else {@code Accept-Language}, else English. */
public class LocaleFilter extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String chosen = request.getCookies() == null ? null : Arrays.stream(request.getCookies())
                .filter(c -> EditorLocales.COOKIE.equals(c.getName())).map(Cookie::getValue).findFirst().orElse(null);
        Locale locale = EditorLocales.resolve(chosen, request.getLocales());
        request.setAttribute(EditorRequests.LOCALE, locale);
        request.setAttribute("lang", locale.getLanguage());
        request.setAttribute("languages", EditorLocales.SUPPORTED);
        chain.doFilter(request, response);
    }
}
