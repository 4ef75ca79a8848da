package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Caller;
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
        Caller caller = Arrays.stream(context.getParameters()).filter(Caller.class::isInstance).map(Caller.class::cast)
                .findFirst().orElseThrow(() -> new IllegalStateException(context.getMethod() + " is gated but takes no Caller"));
        if (!caller.has(gate.value())) {
            throw new GateRefusedException("This needs the '" + gate.value() + "' capability, which role '"
                    + caller.role().name() + "' does not have");
        }
        return context.proceed();
    }
}
