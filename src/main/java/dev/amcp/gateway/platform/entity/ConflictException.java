package dev.amcp.gateway.platform.entity;

/**
 * Input that clashes with what already exists (a slug or username in use). It is still an
 * {@link IllegalArgumentException}, so code that treats any bad input alike keeps working; the REST API answers 409.
 */
public class ConflictException extends IllegalArgumentException {

    public ConflictException(String message) {
        super(message);
    }
}
