package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorMessages;
import dev.amcp.gateway.editor.control.Navigation;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Request plumbing shared by the editor servlets and filters: views, flash messages, redirects. */
final class EditorRequests {

    static final String LOCALE = "amcp.locale";
    static final String CALLER = "caller";
    private static final String FLASH = "amcp.flash";
    private static final String FLASH_WARNINGS = "amcp.flashWarnings";

    private EditorRequests() {}

    /** Behind TLS: the connection itself, or a proxy that says so. */
    static boolean isSecure(HttpServletRequest request) {
        return request.isSecure() || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
    }

    static Locale locale(HttpServletRequest request) {
        Locale locale = (Locale) request.getAttribute(LOCALE);
        return locale == null ? Locale.ENGLISH : locale;
    }

    /**
     * Renders a view of {@code WEB-INF/views}. Views are declared as named servlets in {@code web.xml}, because
     * the REST application is mapped to {@code /*} and would otherwise receive forwards to {@code *.jsp}.
     */
    static void render(HttpServletRequest request, HttpServletResponse response, String view)
            throws ServletException, IOException {
        request.setAttribute("nav", Navigation.shownTo((Caller) request.getAttribute(CALLER)));
        Caller caller = (Caller) request.getAttribute(CALLER);
        request.setAttribute("canEdit", caller != null && caller.has(Capability.ADMIN));
        if (caller != null) {
            request.setAttribute("username", caller.username());
            request.setAttribute("roleName", caller.role().name());
            request.setAttribute("ownKeys", !caller.operator()); // an operator has no workspace, so no keys page of their own
        }
        HttpSession session = request.getSession(false);
        if (session != null && session.getAttribute(FLASH) != null) {
            request.setAttribute("flash", session.getAttribute(FLASH));
            session.removeAttribute(FLASH);
        }
        if (session != null && session.getAttribute(FLASH_WARNINGS) != null) {
            request.setAttribute("flashWarnings", session.getAttribute(FLASH_WARNINGS));
            session.removeAttribute(FLASH_WARNINGS);
        }
        response.setContentType("text/html;charset=UTF-8");
        RequestDispatcher dispatcher = request.getServletContext().getNamedDispatcher("view-" + view);
        if (dispatcher == null) {
            throw new ServletException("No view " + view);
        }
        dispatcher.forward(request, response);
    }

    static void renderError(HttpServletRequest request, HttpServletResponse response, int status, String message)
            throws ServletException, IOException {
        response.setStatus(status);
        request.setAttribute("errorMessage", message);
        render(request, response, "error");
    }

    /** A form field without surrounding blanks; empty when the form did not send it. */
    static String field(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null ? "" : value.strip();
    }

    /** A one-time message shown on the next page (after a redirect). */
    static void flash(HttpServletRequest request, String message) {
        request.getSession().setAttribute(FLASH, message);
    }

    /**
     * One-time warnings shown on the next page, such as a license's soft limits or a re-pinned code hash, in this
     * request's language; nothing when empty.
     */
    static void flashWarnings(HttpServletRequest request, java.util.List<Message> warnings) {
        if (!warnings.isEmpty()) {
            request.getSession().setAttribute(FLASH_WARNINGS, new java.util.ArrayList<>(EditorMessages.get(locale(request), warnings)));
        }
    }

    /** A value for the next page only, such as a new API key: kept in the session until {@link #takeOnce} reads it. */
    static void keepOnce(HttpServletRequest request, String name, Object value) {
        request.getSession().setAttribute(name, value);
    }

    /** The value {@link #keepOnce} kept, removed as it is read, or {@code null}. */
    static Object takeOnce(HttpServletRequest request, String name) {
        HttpSession session = request.getSession(false);
        Object value = session == null ? null : session.getAttribute(name);
        if (value != null) {
            session.removeAttribute(name);
        }
        return value;
    }

    /**
     * The request's path inside the application as the container mapped it (servlet path and path info: decoded, dot
     * segments and path parameters gone), so the editor's filters decide on the path the servlet serves, never on a
     * spelling of it such as {@code /admin/assets/../servers}.
     */
    static String path(HttpServletRequest request) {
        String info = request.getPathInfo();
        return request.getServletPath() + (info == null ? "" : info);
    }

    /** A static file of the editor (scripts, styles): no session, no sign-in, cacheable. */
    static boolean isAsset(HttpServletRequest request) {
        return path(request).startsWith("/admin/assets/");
    }

    /** The value of the editor cookie {@code name} the browser sent, or {@code null}. */
    static String cookie(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        return cookies == null ? null : Arrays.stream(cookies).filter(c -> name.equals(c.getName())).map(Cookie::getValue)
                .findFirst().orElse(null);
    }

    /** Sets an editor cookie: limited to {@code /admin}, HttpOnly, SameSite=Lax; {@code maxAge} -1 for the browser session, 0 to delete. */
    static void setCookie(HttpServletRequest request, HttpServletResponse response, String name, String value, int maxAge, boolean secure) {
        Cookie cookie = new Cookie(name, value);
        cookie.setPath(request.getContextPath() + "/admin");
        cookie.setMaxAge(maxAge);
        cookie.setHttpOnly(true);
        cookie.setSecure(secure);
        cookie.setAttribute("SameSite", "Lax");
        response.addCookie(cookie);
    }

    static void redirect(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        response.sendRedirect(request.getContextPath() + path);
    }

    /** Where this request reached the gateway: scheme, host, port and context root, without a trailing slash. */
    static String base(HttpServletRequest request) {
        String url = request.getRequestURL().toString();
        return url.substring(0, url.length() - request.getRequestURI().length()) + request.getContextPath();
    }

    /**
     * Keeps a flow the browser started and a provider will send back (a sign-in, an account connection) in the
     * session under its {@code state}; at most {@code max} at once (tabs), the oldest dropped.
     */
    static <T> void keepStarted(HttpServletRequest request, String attribute, String state, T started, int max) {
        HttpSession session = request.getSession();
        synchronized (EditorRequests.class) {
            Map<String, T> next = new LinkedHashMap<>(started(session, attribute));
            next.put(state, started);
            while (next.size() > max) {
                next.remove(next.keySet().iterator().next());
            }
            session.setAttribute(attribute, next);
        }
    }

    /** The flow this session started with this state, removed so that it is used once; {@code null} if none. */
    static <T> T takeStarted(HttpServletRequest request, String attribute, String state) {
        HttpSession session = request.getSession(false);
        if (session == null || state == null) {
            return null;
        }
        synchronized (EditorRequests.class) {
            Map<String, T> rest = new LinkedHashMap<>(started(session, attribute));
            T started = rest.remove(state);
            if (started != null) {
                session.setAttribute(attribute, rest);
            }
            return started;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Map<String, T> started(HttpSession session, String attribute) {
        Object started = session.getAttribute(attribute);
        return started == null ? Map.of() : (Map<String, T>) started;
    }
}
