package dev.amcp.gateway.governance.control;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * License gate: before the annotated method runs, the {@link LicenseGate} bean of this name judges the call
 * against the installed license. A refusal throws {@link GateRefusedException}; a soft limit adds a warning to a
 * {@link dev.amcp.gateway.governance.entity.Gated} result.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface LicensedFeature {
    @Nonbinding
    String[] value();
}
