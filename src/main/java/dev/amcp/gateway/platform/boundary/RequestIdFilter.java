package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.DatabaseOutage;
import dev.amcp.gateway.platform.control.Drain;
import dev.amcp.gateway.platform.control.LogContext;
import dev.amcp.gateway.platform.control.Settings;
import dev.amcp.gateway.platform.control.Tracing;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Gives every HTTP request an id and carries it through the request's log lines.
 *
 * <ul>
 *   <li>An incoming {@code X-Request-Id} is kept when it is a plausible id (1 to 64 characters of letters,
 *       digits, {@code . _ : -}), so a load balancer's id flows through; anything else is replaced by a random
 *       UUID. The id is answered in the {@code X-Request-Id} response header.</li>
 *   <li>While the request runs, {@link LogContext} holds it, so with JSON logging every log line of the request
 *       thread carries {@code ext_requestId}.</li>
 *   <li>One summary line per request ({@code request <id> <method> <path> -> <status> in <ms> ms}) is logged at INFO
 *       or FINE as {@code AMCP_REQUEST_LOG} says (see {@link SummaryPolicy}): by default only failed requests
 *       (status 400 and up) and slow ones ({@code AMCP_REQUEST_LOG_SLOW_MS}, default 1000) reach INFO. A line at INFO
 *       cost a third of a plain request's CPU on two cores, and a tool call is two requests when its upstream is
 *       local; Liberty's {@code httpAccessLogging} is the cheaper way to keep every request (docs/install.md).</li>
 * </ul>
 *
 * Every request counts as in flight while it runs ({@link Drain}), so a draining node knows when it may stop. While
 * the database cannot be reached ({@link DatabaseOutage}), requests are answered 503 at once, and a request that fails
 * because of it is answered so too when nothing of its answer has gone out yet ({@link DatabaseUnavailable}).
 * The query string is never logged: it may carry secrets. {@code /health}, {@code /metrics} and {@code /openapi}
 * are served by Liberty itself, outside this WAR, so they pass no filter of ours and carry no id.
 */
@WebFilter(urlPatterns = "/*", asyncSupported = true, filterName = "amcp-request-id")
public class RequestIdFilter extends HttpFilter {

    public static final String HEADER = "X-Request-Id";
    private static final Pattern PLAUSIBLE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final Logger LOG = Logger.getLogger(RequestIdFilter.class.getName());

    @Inject
    Settings settings;

    @Inject
    Drain drain;

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    /** Which requests have their summary line at INFO; the others have it at FINE. */
    public enum SummaryPolicy {
        /** Every request ({@code AMCP_REQUEST_LOG=all}, or {@code true}). */
        ALL,
        /** Failed (status 400 and up) and slow requests; the default ({@code problems}). */
        PROBLEMS,
        /** None ({@code none}, or {@code false}). */
        NONE;

        /** The policy a setting names; anything unknown (or unset) is {@link #PROBLEMS}. */
        public static SummaryPolicy of(String setting) {
            return parse(setting).orElse(PROBLEMS);
        }

        static Optional<SummaryPolicy> parse(String setting) {
            return switch (setting == null ? "" : setting.strip().toLowerCase(Locale.ROOT)) {
                case "all", "true" -> Optional.of(ALL);
                case "problems" -> Optional.of(PROBLEMS);
                case "none", "false", "off" -> Optional.of(NONE);
                default -> Optional.empty();
            };
        }

        public Level level(String status, long millis, long slowMillis) {
            boolean problem = millis >= slowMillis || (status.length() == 3 && status.charAt(0) >= '4');
            return this == ALL || (this == PROBLEMS && problem) ? Level.INFO : Level.FINE;
        }
    }

    private volatile SummaryPolicy summaries = SummaryPolicy.PROBLEMS;
    private volatile long slowMillis = 1000;

    @Override
    public void init() {
        String setting = settings.get("AMCP_REQUEST_LOG", "problems");
        summaries = SummaryPolicy.parse(setting).orElseGet(() -> {
            LOG.warning(() -> "AMCP_REQUEST_LOG=" + sanitize(setting) + " is not all, problems or none; using problems");
            return SummaryPolicy.PROBLEMS;
        });
        slowMillis = settings.getLong("AMCP_REQUEST_LOG_SLOW_MS", 1000);
    }

    /** The id to use for an incoming header value: the value itself when plausible, else a fresh random UUID. */
    public static String idFor(String incoming) {
        return incoming != null && PLAUSIBLE.matcher(incoming).matches() ? incoming : randomId();
    }

    /**
     * A version-4 UUID from the thread's fast generator. A request id only correlates log lines and is answered to
     * the client anyway, so it needs no secure randomness; {@code UUID.randomUUID()} cost 1 % of a request.
     */
    static String randomId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String id = idFor(request.getHeader(HEADER));
        response.setHeader(HEADER, id);
        request.setAttribute(HEADER, id);
        long start = System.nanoTime();
        try (var counted = drain.request();
             var scope = LogContext.put(LogContext.REQUEST_ID, id);
             var trace = Tracing.incoming(request.getHeader(Tracing.TRACEPARENT), request.getHeader(Tracing.TRACESTATE))) {
            try {
                if (DatabaseOutage.refusing(dataSource)) {
                    DatabaseUnavailable.answer(request, response);
                } else {
                    served(request, response, chain);
                }
            } finally {
                long ms = (System.nanoTime() - start) / 1_000_000;
                String status = request.isAsyncStarted() ? "async" : String.valueOf(response.getStatus());
                Level level = summaries.level(status, ms, slowMillis);
                if (LOG.isLoggable(level)) {
                    LOG.log(level, "request " + id + " " + request.getMethod() + " " + sanitize(request.getRequestURI())
                            + " -> " + status + " in " + ms + " ms");
                }
            }
        }
    }

    private static void served(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException e) {
            if (!DatabaseOutage.noted(e) || response.isCommitted()) {
                throw e;
            }
            LOG.log(Level.FINE, "A request failed on the unreachable database", e);
            response.reset();
            DatabaseUnavailable.answer(request, response);
        }
    }

    /** Keeps a path printable on one line and bounded (a loop: a regular expression per request cost 2 %). */
    public static String sanitize(String path) {
        int length = Math.min(path.length(), 200);
        StringBuilder clean = new StringBuilder(length + 3);
        for (int i = 0; i < length; i++) {
            char c = path.charAt(i);
            clean.append(Character.isISOControl(c) ? '?' : c);
        }
        return path.length() > 200 ? clean.append("...").toString() : clean.toString();
    }
}
