package dev.amcp.gateway.governance.control;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Operator gate: the annotated service method runs only for an operator of the instance (workspaces, the license),
 * never for a workspace role, whatever its capabilities. The method must take a
 * {@link dev.amcp.gateway.governance.entity.Caller} parameter.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresOperator {}
