package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.platform.entity.Message;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Enforces {@link RequiresOperator}: the one home of the operator gate on services. */
@RequiresOperator
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class OperatorInterceptor {

    @AroundInvoke
    Object check(InvocationContext context) throws Exception {
        if (!CapabilityInterceptor.callerOf(context).operator()) {
            throw new GateRefusedException(Message.of("gate.operator",
                    "Only an operator of this gateway may do this; workspace roles cannot"));
        }
        return context.proceed();
    }
}
