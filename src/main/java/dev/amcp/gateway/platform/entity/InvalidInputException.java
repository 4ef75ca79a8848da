package dev.amcp.gateway.platform.entity;

/** Input that cannot be accepted, explained as a {@link Message}; the exception's message is the English text. */
public class InvalidInputException extends IllegalArgumentException {

    private final transient Message problem;

    public InvalidInputException(Message problem) {
        super(problem.english());
        this.problem = problem;
    }

    public Message problem() {
        return problem;
    }
}
