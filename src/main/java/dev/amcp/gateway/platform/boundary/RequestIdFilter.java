package dev.amcp.gateway.platform.boundary;

import dev.amcp.gateway.platform.control.LogContext;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Gives every HTTP request an id and carries it through the request's log lines.
 *
 * <ul>
 *   <li>An incoming {@code X-Request-Id} is kept when it is a plausible id (1 to 64 characters of letters,
 *       digits, {@code . _ : -}), so a load balancer's id flows through; anything else is replaced by a random
 *       UUID. The id is answered in the {@code X-Request-Id} response header.</li>
 *   <li>While the request runs, {@link LogContext} holds it, so with JSON logging every log line of the request
 *       thread carries {@code ext_requestId}.</li>
 *   <li>One summary line per request is logged at INFO ({@code request <id> <method> <path> -> <status> in <ms> ms});
 *       {@code AMCP_REQUEST_LOG=false} moves it to FINE.</li>
 * </ul>
 *
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

    private volatile boolean summaryAtInfo = true;

    @Override
    public void init() {
        summaryAtInfo = settings.getBoolean("AMCP_REQUEST_LOG", true);
    }

    /** The id to use for an incoming header value: the value itself when plausible, else a fresh UUID. */
    public static String idFor(String incoming) {
        return incoming != null && PLAUSIBLE.matcher(incoming).matches() ? incoming : UUID.randomUUID().toString();
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String id = idFor(request.getHeader(HEADER));
        response.setHeader(HEADER, id);
        request.setAttribute(HEADER, id);
        long start = System.nanoTime();
        try (var scope = LogContext.put(LogContext.REQUEST_ID, id)) {
            try {
                chain.doFilter(request, response);
            } finally {
                String path = request.getRequestURI();
                Level level = summaryAtInfo ? Level.INFO : Level.FINE;
                if (LOG.isLoggable(level)) {
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    String status = request.isAsyncStarted() ? "async" : String.valueOf(response.getStatus());
                    LOG.log(level, "request " + id + " " + request.getMethod() + " " + sanitize(path) + " -> " + status
                            + " in " + ms + " ms");
                }
            }
        }
    }

    /** Keeps a path printable on one line and bounded. */
    static String sanitize(String path) {
        String clean = path.replaceAll("[\\p{Cntrl}]", "?");
        return clean.length() > 200 ? clean.substring(0, 200) + "..." : clean;
    }
}
