package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.RunnerFrames;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Asks the runner to check code when a code tool is saved, and for the editor: the runner parses it (syntax,
 * {@code import}, the tool names it passes to {@code amcp.run}/{@code amcp.describe}) without running it, over one
 * authenticated WebSocket whose only frame is {@code check}. It is the only reader of code in the system, so the
 * editor's pre-filled {@code uses} and the save-time rules cannot drift apart. Without a runner, or when it does not
 * answer in time, the code is not checked here ({@link Verdict#UNCHECKED}); the same check still runs before every run.
 */
@ApplicationScoped
public class CodeCheck {

    /** How long the runner may take to answer a check once connected. */
    static final long ANSWER_MILLIS = 5_000;
    private static final Logger LOG = Logger.getLogger(CodeCheck.class.getName());

    @Inject
    RunnerConnector connector;

    @Inject
    CodeRunSettings runSettings;

    /** What the runner said about some code: whether it could be asked, and what it read (no problems: fine). */
    public record Verdict(boolean checked, RunnerFrames.CheckResult result) {
        public static final Verdict UNCHECKED = new Verdict(false, RunnerFrames.CheckResult.NONE);

        public List<RunnerFrames.CodeProblem> problems() {
            return result.problems();
        }

        /** The tool names the code passes literally, in order of first appearance. */
        public List<String> toolNames() {
            return result.calls().stream().map(RunnerFrames.ToolCall::name).distinct().toList();
        }

        /** The first literal call of each tool that is not in {@code uses}, in source order. */
        public List<RunnerFrames.ToolCall> outside(Collection<String> uses) {
            Set<String> seen = new HashSet<>(uses);
            return result.calls().stream().filter(c -> seen.add(c.name())).toList();
        }
    }

    public Verdict check(String code) {
        if (!connector.configured()) {
            return Verdict.UNCHECKED;
        }
        CheckSession session = new CheckSession(code);
        CompletableFuture<?> connected = connector.openAsync(session);
        try {
            connected.get(runSettings.values().connectTimeoutMs(), TimeUnit.MILLISECONDS);
            return new Verdict(true, session.answer.get(ANSWER_MILLIS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.UNCHECKED;
        } catch (Exception e) {
            LOG.warning(() -> "Code was saved unchecked: the runner did not answer the check (" + e + ")");
            return Verdict.UNCHECKED;
        } finally {
            session.answer.cancel(false);
            // The runner closes after its answer; closing here too, on the request thread, raced that close and
            // held the save for Liberty's 3 s close wait (and in one CI run, for good).
            connector.closeInBackground(session.session);
        }
    }

    /** One check over its own connection: sends the code on open, takes the one check_result. */
    static final class CheckSession extends Endpoint {
        private final String code;
        final CompletableFuture<RunnerFrames.CheckResult> answer = new CompletableFuture<>();
        volatile Session session;

        CheckSession(String code) {
            this.code = code;
        }

        @Override
        public void onOpen(Session session, EndpointConfig config) {
            this.session = session;
            if (answer.isDone()) {
                RunnerConnector.closeQuietly(session); // the check gave up while connecting; this is a connect thread
                return;
            }
            session.addMessageHandler(String.class, (MessageHandler.Whole<String>) this::onFrame);
            try {
                session.getBasicRemote().sendText(RunnerFrames.check(code));
            } catch (IOException | IllegalStateException e) {
                answer.completeExceptionally(e);
            }
        }

        void onFrame(String text) {
            try {
                answer.complete(RunnerFrames.parseCheckResult(text));
            } catch (RunnerFrames.ProtocolViolation e) {
                answer.completeExceptionally(e);
            }
        }

        @Override
        public void onClose(Session session, CloseReason reason) {
            answer.completeExceptionally(new IllegalStateException("the runner closed the check connection: " + reason));
        }

        @Override
        public void onError(Session session, Throwable error) {
            answer.completeExceptionally(error);
        }
    }
}
