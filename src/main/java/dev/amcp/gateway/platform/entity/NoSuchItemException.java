package dev.amcp.gateway.platform.entity;

/**
 * An id that names nothing the caller can see (missing, or another workspace's). It is still an
 * {@link InvalidInputException}, so code that treats any bad input alike keeps working; the REST API answers 404.
 */
public class NoSuchItemException extends InvalidInputException {

    public NoSuchItemException(Message problem) {
        super(problem);
    }
}
