package dev.amcp.gateway.governance.control;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * "Self or admin" gate: the annotated service method runs when its {@link dev.amcp.gateway.governance.entity.Caller}
 * argument is the person named by its {@link Person} argument (a member managing their own API keys), or holds the
 * {@code admin} capability (an admin managing anyone's). A member asking about someone else is refused before anything
 * is looked up, so the refusal does not tell whether that person exists. The method must take a {@code Caller} and
 * one {@code String} parameter marked {@link Person}.
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RequiresSelfOrAdmin {

    /** The username parameter of a {@link RequiresSelfOrAdmin} method: whose things the call is about. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    @interface Person {}
}
