package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The one request-routing piece of the editor's pages. A page ({@link EditorServlet#routes()}) declares once what
 * each path under its mapping does, instead of taking the path apart in {@code doGet} and {@code doPost}:
 * <ul>
 *   <li>{@link #get(String, Page)} and {@link #post(String, Page)}: a fixed name, such as {@code ""} (the page's own
 *       path, e.g. the list), {@code "new"} (the empty form and its save) or {@code "install"};</li>
 *   <li>{@link #getItem(String, ItemPage)} and {@link #postItem(String, ItemPage)}: one item, {@code /{key}} with the
 *       action {@code ""}, or {@code /{key}/{action}}, where the action may itself have slashes
 *       ({@code keys/revoke}). The key is looked up first, by the page's {@link Lookup}.</li>
 * </ul>
 * A fixed name wins over an item key. A path that matches nothing, and a key the lookup does not find (missing,
 * another workspace's, out of the caller's sight: all read the same), is the 404 page. A gate that refuses
 * ({@link GateRefusedException}) and that the handler did not answer itself is the 403 page with the page's refusal
 * message ({@link #refusedWith(String)}). {@code HEAD} is served as {@code GET}.
 *
 * @param <T> what an item key stands for: an entity, or the key itself for pages whose services look it up
 */
final class EditorRoutes<T> {

    /** A handler of a fixed path. */
    @FunctionalInterface
    interface Page {
        void handle(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException;
    }

    /** A handler of one item's path. */
    @FunctionalInterface
    interface ItemPage<T> {
        void handle(HttpServletRequest request, HttpServletResponse response, Caller caller, T item)
                throws ServletException, IOException;
    }

    /** The item a path's key names, or {@code null} when the caller has no such item. */
    @FunctionalInterface
    interface Lookup<T> {
        T find(Caller caller, String key);
    }

    private final Lookup<T> lookup;
    private final Map<String, Page> gets = new HashMap<>();
    private final Map<String, Page> posts = new HashMap<>();
    private final Map<String, ItemPage<T>> itemGets = new HashMap<>();
    private final Map<String, ItemPage<T>> itemPosts = new HashMap<>();
    private String refusedKey = "error.forbidden";

    private EditorRoutes(Lookup<T> lookup) {
        this.lookup = lookup;
    }

    /** Routes whose items are looked up by their key, a path segment. */
    static <T> EditorRoutes<T> keyed(Lookup<T> lookup) {
        return new EditorRoutes<>(lookup);
    }

    /** Routes whose items are numbered: a key that is not a number finds nothing. */
    static <T> EditorRoutes<T> numbered(BiFunction<Caller, Long, T> lookup) {
        return new EditorRoutes<>((caller, key) -> {
            try {
                return lookup.apply(caller, Long.valueOf(key));
            } catch (NumberFormatException e) {
                return null;
            }
        });
    }

    /** Routes of a page without items. */
    static EditorRoutes<Void> fixed() {
        return new EditorRoutes<>((caller, key) -> null);
    }

    /** {@code GET /name}; {@code ""} is the page's own path. */
    EditorRoutes<T> get(String name, Page page) {
        gets.put(name, page);
        return this;
    }

    /** {@code POST /name}; {@code ""} is the page's own path. */
    EditorRoutes<T> post(String name, Page page) {
        posts.put(name, page);
        return this;
    }

    /** {@code GET /{key}} for the action {@code ""}, else {@code GET /{key}/{action}}. */
    EditorRoutes<T> getItem(String action, ItemPage<T> page) {
        itemGets.put(action, page);
        return this;
    }

    /** {@code POST /{key}} for the action {@code ""}, else {@code POST /{key}/{action}}. */
    EditorRoutes<T> postItem(String action, ItemPage<T> page) {
        itemPosts.put(action, page);
        return this;
    }

    /** The message key of the 403 page when a gate refuses and the handler did not answer it ({@code error.forbidden}). */
    EditorRoutes<T> refusedWith(String messageKey) {
        this.refusedKey = messageKey;
        return this;
    }

    /** Whether these routes serve the request's method; others go to the servlet's own handling (405). */
    static boolean serves(HttpServletRequest request) {
        return switch (request.getMethod()) {
            case "GET", "HEAD", "POST" -> true;
            default -> false;
        };
    }

    void serve(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        boolean post = "POST".equals(request.getMethod());
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        String rest = path.startsWith("/") ? path.substring(1) : path;
        try {
            Page page = (post ? posts : gets).get(rest);
            if (page != null) {
                page.handle(request, response, caller);
                return;
            }
            int slash = rest.indexOf('/');
            String key = slash < 0 ? rest : rest.substring(0, slash);
            String action = slash < 0 ? "" : stripTrailingSlash(rest.substring(slash + 1));
            ItemPage<T> itemPage = (post ? itemPosts : itemGets).get(action);
            T item = key.isEmpty() || itemPage == null ? null : lookup.find(caller, key);
            if (item == null) {
                EditorServlet.notFound(request, response);
                return;
            }
            itemPage.handle(request, response, caller, item);
        } catch (GateRefusedException e) {
            if (response.isCommitted()) {
                throw e;
            }
            response.resetBuffer();
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, EditorServlet.msg(request, refusedKey));
        }
    }

    /** {@code /12/} is {@code /12}. */
    private static String stripTrailingSlash(String action) {
        return action.endsWith("/") ? action.substring(0, action.length() - 1) : action;
    }
}
