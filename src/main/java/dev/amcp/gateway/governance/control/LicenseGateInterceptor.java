package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.Gated;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/** Enforces {@link LicensedFeature}: runs the named gates, refuses or records soft-limit warnings. */
@LicensedFeature({})
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER + 10)
public class LicenseGateInterceptor {

    private static final Logger LOG = Logger.getLogger(LicenseGateInterceptor.class.getName());

    @Inject
    LicenseService licenses;

    @Inject
    Instance<LicenseGate> gates;

    @AroundInvoke
    Object judge(InvocationContext context) throws Exception {
        LicensedFeature feature = context.getMethod().getAnnotation(LicensedFeature.class);
        if (feature == null) {
            feature = context.getMethod().getDeclaringClass().getAnnotation(LicensedFeature.class);
        }
        LicenseTerms terms = licenses.current();
        List<Message> warnings = new ArrayList<>();
        for (String name : feature.value()) {
            LicenseGate gate = gates.stream().filter(g -> g.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("No license gate named " + name));
            LicenseGate.Decision decision = gate.judge(terms, context.getParameters());
            switch (decision.verdict()) {
                case REFUSE -> throw new GateRefusedException(decision.message());
                case WARN -> {
                    LOG.warning(() -> "License soft limit: " + decision.message().english());
                    warnings.add(decision.message());
                }
                case ALLOW -> { }
            }
        }
        Object result = context.proceed();
        if (result instanceof Gated<?> gated) {
            for (Message warning : warnings) {
                gated = gated.withWarning(warning);
            }
            return gated;
        }
        return result;
    }
}
