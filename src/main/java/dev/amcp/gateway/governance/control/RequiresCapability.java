package dev.amcp.gateway.governance.control;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Role gate: the annotated service method runs only when its {@code Caller} argument holds the capability.
 * The method must take a {@link dev.amcp.gateway.governance.entity.Caller} parameter.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresCapability {
    @Nonbinding
    String value();
}
