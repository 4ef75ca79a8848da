package dev.amcp.gateway.governance.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.workspace.control.KeyAdministration;
import dev.amcp.gateway.workspace.control.UserAdministration;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The "self or admin" gate of a person's API keys and the "admin or operator" gate of the admin audit log are
 * interceptor bindings on the services, like every other role gate: the bindings are where they must be, and the
 * interceptors let through exactly who they should.
 */
class GateBindingsTest {

    private static final Caller ADMIN = member("ada", Capability.ADMIN);
    private static final Caller MEMBER = member("bob", Capability.TOOLS_WRITE);
    private static final Caller OPERATOR = Caller.operator(9L, null, "root");

    private static Caller member(String username, String capability) {
        return new Caller(1, 2L, null, username, new RoleGrant(3, username + "-role", Set.of(capability), true, Set.of()),
                CallScope.UNRESTRICTED);
    }

    @Test
    void everyKeyOperationCarriesTheSelfOrAdminBindingOnItsUsername() throws Exception {
        for (Method m : KeyAdministration.class.getDeclaredMethods()) {
            if (java.lang.reflect.Modifier.isPublic(m.getModifiers())) {
                assertNotNull(m.getAnnotation(RequiresSelfOrAdmin.class), m + " is gated");
                assertTrue(m.getParameters()[1].isAnnotationPresent(RequiresSelfOrAdmin.Person.class), m + " marks the username");
            }
        }
    }

    @Test
    void theAuditLogIsGatedForAdminsAndOperatorsByBinding() throws Exception {
        RequiresCapability gate = AdminAudit.class.getMethod("list", Caller.class, AdminAudit.Query.class).getAnnotation(RequiresCapability.class);
        assertNotNull(gate);
        assertEquals(Capability.ADMIN, gate.value());
        assertTrue(gate.orOperator());
    }

    @Test
    void selfOrAdminLetsMembersManageTheirOwnKeysAndAdminsAnyones() throws Exception {
        Method list = KeyAdministration.class.getMethod("list", Caller.class, String.class);
        SelfOrAdminInterceptor gate = new SelfOrAdminInterceptor();
        assertEquals("ran", gate.check(context(list, MEMBER, "bob")));
        assertEquals("ran", gate.check(context(list, ADMIN, "bob")));
        assertEquals("ran", gate.check(context(list, ADMIN, "ada")));
        GateRefusedException refused = assertThrows(GateRefusedException.class, () -> gate.check(context(list, MEMBER, "ada")));
        assertEquals("gate.self", refused.reason().key());
        assertTrue(refused.getMessage().contains("'ada'"), refused.getMessage());
        assertThrows(GateRefusedException.class, () -> gate.check(context(list, OPERATOR, "root")), "an operator has no workspace keys");

        Method issue = KeyAdministration.class.getMethod("issue", Caller.class, String.class, String.class, Instant.class);
        assertThrows(GateRefusedException.class, () -> gate.check(context(issue, MEMBER, "ada", "k", null)));
        assertEquals("ran", gate.check(context(issue, MEMBER, "bob", "k", null)));

        Method unmarked = UserAdministration.class.getMethod("list", Caller.class);
        assertThrows(IllegalStateException.class, () -> gate.check(context(unmarked, ADMIN)), "a gated method must mark its person");
    }

    @Test
    void theCapabilityGateLetsOperatorsThroughOnlyWhereItSaysSo() throws Exception {
        Method audit = AdminAudit.class.getMethod("list", Caller.class, AdminAudit.Query.class);
        CapabilityInterceptor gate = new CapabilityInterceptor();
        assertEquals("ran", gate.check(context(audit, ADMIN, (Object) null)));
        assertEquals("ran", gate.check(context(audit, OPERATOR, (Object) null)));
        assertThrows(GateRefusedException.class, () -> gate.check(context(audit, MEMBER, (Object) null)));

        Method users = UserAdministration.class.getMethod("list", Caller.class);
        assertThrows(GateRefusedException.class, () -> gate.check(context(users, OPERATOR)), "without orOperator an operator is refused");
        assertEquals("ran", gate.check(context(users, ADMIN)));
    }

    private static InvocationContext context(Method method, Caller caller, Object... rest) {
        Object[] parameters = new Object[rest.length + 1];
        parameters[0] = caller;
        System.arraycopy(rest, 0, parameters, 1, rest.length);
        return (InvocationContext) Proxy.newProxyInstance(GateBindingsTest.class.getClassLoader(), new Class<?>[] {InvocationContext.class},
                (p, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getParameters" -> parameters;
                    case "proceed" -> "ran";
                    default -> null;
                });
    }
}
