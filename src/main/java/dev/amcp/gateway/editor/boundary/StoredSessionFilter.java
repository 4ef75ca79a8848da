package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.editor.control.EditorSessions;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The editor's session, kept in the database ({@link EditorSessions}) rather than in the node's memory, so a load
 * balancer needs no affinity for {@code /admin}: the first editor filter hands every later one, the servlets and the
 * views a request whose {@code getSession} is that stored session. Each change is written at once, before the answer
 * leaves, so the browser's next request finds it on whichever node it reaches. The cookie ({@value #COOKIE}) is
 * HttpOnly, SameSite=Lax, limited to {@code /admin}, and Secure with {@code AMCP_SECURE_COOKIES=true}.
 */
public class StoredSessionFilter extends PageFilter {

    public static final String COOKIE = "amcp-editor-session";
    /** How often a write that lost to another request's write is tried again on the fresh row. */
    private static final int WRITE_TRIES = 5;

    @Inject
    EditorSessions sessions;

    @Override
    protected void doPage(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(new StoredSessionRequest(request, response), response);
    }

    /** The request as the editor sees it: its session is the stored one. */
    final class StoredSessionRequest extends HttpServletRequestWrapper {

        private final HttpServletResponse response;
        private StoredSession session;
        private boolean looked;

        StoredSessionRequest(HttpServletRequest request, HttpServletResponse response) {
            super(request);
            this.response = response;
        }

        @Override
        public HttpSession getSession() {
            return getSession(true);
        }

        @Override
        public HttpSession getSession(boolean create) {
            if (!looked) {
                looked = true;
                String cookie = EditorRequests.cookie((HttpServletRequest) getRequest(), COOKIE);
                session = sessions.find(cookie).map(stored -> new StoredSession(cookie, stored, false)).orElse(null);
            }
            if ((session == null || session.invalid) && create) {
                Map<String, Object> empty = new HashMap<>();
                String cookie = sessions.create(empty);
                session = new StoredSession(cookie, new EditorSessions.Stored(empty, 0), true);
                setCookie(cookie, -1);
            }
            return session == null || session.invalid ? null : session;
        }

        /** A new id for the same attributes (at sign-in, against session fixation): a new row, the old one deleted. */
        @Override
        public String changeSessionId() {
            StoredSession current = (StoredSession) getSession(false);
            if (current == null) {
                throw new IllegalStateException("No session to change the id of");
            }
            String cookie = sessions.create(current.attributes);
            sessions.delete(current.cookie);
            session = new StoredSession(cookie, new EditorSessions.Stored(current.attributes, 0), false);
            setCookie(cookie, -1);
            return session.getId();
        }

        @Override
        public String getRequestedSessionId() {
            return session == null ? null : session.getId();
        }

        @Override
        public boolean isRequestedSessionIdValid() {
            return getSession(false) != null;
        }

        private void setCookie(String value, int maxAge) {
            EditorRequests.setCookie(this, response, COOKIE, value, maxAge, getServletContext().getSessionCookieConfig().isSecure());
        }

        /** One browser's stored session: read once per request, each change written through. */
        final class StoredSession implements HttpSession {

            private final String cookie;
            private final boolean fresh;
            private final long createdAt = System.currentTimeMillis();
            private Map<String, Object> attributes;
            private long version;
            private boolean invalid;

            StoredSession(String cookie, EditorSessions.Stored stored, boolean fresh) {
                this.cookie = cookie;
                this.attributes = new HashMap<>(stored.attributes());
                this.version = stored.version();
                this.fresh = fresh;
            }

            /** Applies {@code change} to the attributes and writes them; after losing to another write, on the fresh row. */
            private void write(Consumer<Map<String, Object>> change) {
                checkValid();
                for (int attempt = 1; ; attempt++) {
                    Map<String, Object> next = new HashMap<>(attributes);
                    change.accept(next);
                    if (sessions.save(cookie, next, version)) {
                        attributes = next;
                        version++;
                        return;
                    }
                    var reread = sessions.find(cookie);
                    if (reread.isEmpty()) { // ended meanwhile (signed out elsewhere, or idle)
                        invalid = true;
                        throw new IllegalStateException("The editor session ended");
                    }
                    attributes = new HashMap<>(reread.get().attributes());
                    version = reread.get().version();
                    if (attempt == WRITE_TRIES) {
                        throw new IllegalStateException("The editor session kept changing under this request");
                    }
                }
            }

            private void checkValid() {
                if (invalid) {
                    throw new IllegalStateException("The session was invalidated");
                }
            }

            @Override
            public Object getAttribute(String name) {
                checkValid();
                return attributes.get(name);
            }

            @Override
            public Enumeration<String> getAttributeNames() {
                checkValid();
                return Collections.enumeration(attributes.keySet());
            }

            @Override
            public void setAttribute(String name, Object value) {
                if (value == null) {
                    removeAttribute(name);
                } else {
                    write(map -> map.put(name, value));
                }
            }

            @Override
            public void removeAttribute(String name) {
                if (attributes.containsKey(name)) {
                    write(map -> map.remove(name));
                }
            }

            @Override
            public void invalidate() {
                checkValid();
                invalid = true;
                sessions.delete(cookie);
                setCookie("", 0);
            }

            @Override
            public String getId() {
                return EditorSessions.idHash(cookie); // never the cookie itself: ids reach logs
            }

            @Override
            public boolean isNew() {
                return fresh;
            }

            @Override
            public long getCreationTime() {
                return createdAt;
            }

            @Override
            public long getLastAccessedTime() {
                return createdAt;
            }

            @Override
            public ServletContext getServletContext() {
                return StoredSessionRequest.this.getServletContext();
            }

            @Override
            public void setMaxInactiveInterval(int interval) {
                // fixed: EditorSessions' idle time
            }

            @Override
            public int getMaxInactiveInterval() {
                return EditorSessions.IDLE_MINUTES * 60;
            }
        }
    }
}
