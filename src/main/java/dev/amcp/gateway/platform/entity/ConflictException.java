package dev.amcp.gateway.platform.entity;

/**
 * Input that clashes with what already exists (a slug or username in use). It is still an
 * {@link IllegalArgumentException}, so code that treats any bad input alike keeps working; the REST API answers 409.
 */
public class ConflictException extends IllegalArgumentException {

    private final transient Message problem;

    public ConflictException(String message) {
        super(message);
        this.problem = null;
    }

    /** A clash explained as a {@link Message}, so the editor can show it in the page's language. */
    public ConflictException(Message problem) {
        super(problem.english());
        this.problem = problem;
    }

    /** The clash as a {@link Message}, or {@code null} when it was given as English text only. */
    public Message problem() {
        return problem;
    }
}
