package dev.amcp.gateway.governance.control;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Role gate: the annotated service method runs only when its {@code Caller} argument holds the capability, or, with
 * {@link #orOperator()}, is an operator of the instance (who holds no workspace capability but may read across
 * workspaces, such as the admin audit log). The method must take a
 * {@link dev.amcp.gateway.governance.entity.Caller} parameter.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresCapability {
    @Nonbinding
    String value();

    /** Whether an operator passes too. */
    @Nonbinding
    boolean orOperator() default false;
}
