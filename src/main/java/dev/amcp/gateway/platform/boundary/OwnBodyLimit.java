package dev.amcp.gateway.platform.boundary;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource that enforces a body cap of its own (with its own setting and error shape), so
 * {@link RequestBodyLimit}'s general cap does not apply to it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface OwnBodyLimit {}
