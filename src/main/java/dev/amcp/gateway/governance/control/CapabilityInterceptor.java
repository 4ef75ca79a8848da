package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.Arrays;

/** Enforces {@link RequiresCapability}: the one home of role gates on services. */
@RequiresCapability("")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class CapabilityInterceptor {

    @AroundInvoke
    Object check(InvocationContext context) throws Exception {
        RequiresCapability gate = context.getMethod().getAnnotation(RequiresCapability.class);
        if (gate == null) {
            gate = context.getMethod().getDeclaringClass().getAnnotation(RequiresCapability.class);
        }
        Caller caller = callerOf(context);
        if (!caller.has(gate.value()) && !(gate.orOperator() && caller.operator())) {
            throw new GateRefusedException(Message.of("gate.capability",
                    "This needs the ''{0}'' capability, which role ''{1}'' does not have", gate.value(), caller.role().name()));
        }
        return context.proceed();
    }

    /** The {@link Caller} argument of a gated method. */
    static Caller callerOf(InvocationContext context) {
        return Arrays.stream(context.getParameters()).filter(Caller.class::isInstance).map(Caller.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException(context.getMethod() + " is gated but takes no Caller"));
    }
}
