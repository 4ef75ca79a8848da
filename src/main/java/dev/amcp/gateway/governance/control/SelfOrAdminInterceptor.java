package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Parameter;

/** Enforces {@link RequiresSelfOrAdmin}: the one home of the "self or admin" gate on services. */
@RequiresSelfOrAdmin
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class SelfOrAdminInterceptor {

    @AroundInvoke
    Object check(InvocationContext context) throws Exception {
        Caller caller = CapabilityInterceptor.callerOf(context);
        String person = personOf(context);
        if (!allows(caller, person)) {
            throw new GateRefusedException(Message.of("gate.self",
                    "Members manage their own API keys only; managing the keys of ''{0}'' needs the ''admin'' capability", person));
        }
        return context.proceed();
    }

    /** An admin of the workspace for anyone, a member for themself. */
    static boolean allows(Caller caller, String person) {
        return caller.has(Capability.ADMIN) || !caller.operator() && caller.username().equals(person);
    }

    /** The {@link RequiresSelfOrAdmin.Person} argument of a gated method. */
    static String personOf(InvocationContext context) {
        Parameter[] parameters = context.getMethod().getParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].isAnnotationPresent(RequiresSelfOrAdmin.Person.class)) {
                return (String) context.getParameters()[i];
            }
        }
        throw new IllegalStateException(context.getMethod() + " is gated by @RequiresSelfOrAdmin but marks no @Person parameter");
    }
}
