package dev.amcp.gateway.editor.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The editor's one routing piece: which handler a method and path reach, and what nothing or a refusal reaches. */
class EditorRoutesTest {

    private static final Caller CALLER = new Caller(1, 2L, null, "ada", new RoleGrant(3, "admin", Set.of("admin"), true, Set.of()),
            CallScope.UNRESTRICTED);

    /** What a request reached: the handler's name, or {@code view:<name>} with the status. */
    private final List<String> reached = new ArrayList<>();
    private int status = 200;

    private final EditorRoutes<String> routes = EditorRoutes.<String>numbered((caller, id) -> id == 7 ? "tool-7" : null)
            .get("", (q, r, c) -> reached.add("list"))
            .get("new", (q, r, c) -> reached.add("blank"))
            .post("new", (q, r, c) -> reached.add("create"))
            .getItem("", (q, r, c, item) -> reached.add("show " + item))
            .postItem("", (q, r, c, item) -> reached.add("save " + item))
            .postItem("test", (q, r, c, item) -> reached.add("test " + item))
            .postItem("keys/revoke", (q, r, c, item) -> reached.add("revoke " + item))
            .postItem("refuse", (q, r, c, item) -> {
                throw new GateRefusedException(Message.of("gate.test", "no"));
            });

    @Test
    void fixedNamesAndItemActionsReachTheirHandlers() throws Exception {
        serve("GET", null);
        serve("GET", "/");
        serve("HEAD", "/");
        serve("GET", "/new");
        serve("POST", "/new");
        serve("GET", "/7");
        serve("GET", "/7/");
        serve("POST", "/7");
        serve("POST", "/7/test");
        serve("POST", "/7/keys/revoke");
        assertEquals(List.of("list", "list", "list", "blank", "create", "show tool-7", "show tool-7", "save tool-7", "test tool-7",
                "revoke tool-7"), reached);
    }

    @Test
    void anythingElseIsTheNotFoundPage() throws Exception {
        for (String[] request : new String[][] {{"POST", "/"}, {"GET", "/8"}, {"GET", "/abc"}, {"GET", "/7/test"},
                {"POST", "/7/unknown"}, {"POST", "/8/test"}, {"GET", "/new/x"}, {"POST", "//test"}}) {
            reached.clear();
            serve(request[0], request[1]);
            assertEquals(List.of("view:error"), reached, request[0] + " " + request[1]);
            assertEquals(404, status, request[0] + " " + request[1]);
        }
    }

    @Test
    void aRefusalTheHandlerDidNotAnswerIsTheForbiddenPage() throws Exception {
        serve("POST", "/7/refuse");
        assertEquals(List.of("view:error"), reached);
        assertEquals(403, status);
    }

    @Test
    void onlyGetHeadAndPostAreRouted() {
        assertTrue(EditorRoutes.serves(request("GET", "/", new HashMap<>())));
        assertTrue(EditorRoutes.serves(request("POST", "/", new HashMap<>())));
        assertFalse(EditorRoutes.serves(request("DELETE", "/", new HashMap<>())));
        assertFalse(EditorRoutes.serves(request("PUT", "/", new HashMap<>())));
    }

    private void serve(String method, String path) throws Exception {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(EditorRequests.CALLER, CALLER);
        routes.serve(request(method, path, attributes), response(), CALLER);
    }

    private HttpServletRequest request(String method, String path, Map<String, Object> attributes) {
        RequestDispatcher dispatcher = (RequestDispatcher) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RequestDispatcher.class}, (p, m, args) -> null);
        ServletContext context = (ServletContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ServletContext.class},
                (p, m, args) -> {
                    if (m.getName().equals("getNamedDispatcher")) {
                        reached.add("view:" + ((String) args[0]).substring("view-".length()));
                        return dispatcher;
                    }
                    return null;
                });
        return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletRequest.class},
                (p, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getPathInfo" -> path;
                    case "getContextPath" -> "";
                    case "getServletContext" -> context;
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> null;
                });
    }

    private HttpServletResponse response() {
        status = 200;
        return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {HttpServletResponse.class},
                (p, m, args) -> {
                    if (m.getName().equals("setStatus")) {
                        status = (Integer) args[0];
                    }
                    return m.getReturnType() == boolean.class ? false : null;
                });
    }
}
