package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The admin audit log's filters as people type them (the REST query and the editor's filter form alike), checked once
 * and turned into an {@link AdminAudit.Query}. A bad value is an {@link InvalidInputException} whose message says what
 * is valid; a blank value does not filter.
 */
public final class AuditFilters {

    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9._@-]{1,100}");

    /** The filters as typed; {@code null} or blank: no filter. */
    public record Typed(String kind, String actor, String since, String until, String limit, String workspace) {}

    private AuditFilters() {}

    /**
     * The query of these filters for this caller. {@code since} and {@code until} are ISO-8601 instants, or dates
     * ({@code 2026-12-01}: from the start of that day, UTC, or to its end); {@code workspace} is an operator's filter,
     * a slug that {@code workspaceIds} resolves.
     */
    public static AdminAudit.Query parse(Caller who, Typed typed, Function<String, Optional<Long>> workspaceIds) {
        String kind = blankToNull(typed.kind());
        String actor = blankToNull(typed.actor());
        String workspace = blankToNull(typed.workspace());
        if (kind != null && !AdminChange.KINDS.contains(kind)) {
            throw bad("problem.audit.kind", "kind must be one of {0}, not ''{1}''", String.join(", ", AdminChange.KINDS), kind);
        }
        if (actor != null && !USERNAME.matcher(actor).matches()) {
            throw bad("problem.audit.actor", "actor is a username: 1 to 100 letters, digits or . _ @ -");
        }
        Long workspaceId = null;
        if (workspace != null) {
            if (!who.operator()) {
                throw bad("problem.audit.workspace", "workspace is an operator''s filter; an admin sees their own workspace only");
            }
            workspaceId = workspaceIds.apply(workspace).orElseThrow(() -> bad("problem.audit.noWorkspace", "No workspace ''{0}''", workspace));
        }
        return new AdminAudit.Query(workspaceId, kind, actor, instant("since", blankToNull(typed.since()), 0),
                instant("until", blankToNull(typed.until()), 1), limit(blankToNull(typed.limit())));
    }

    /** An instant, or a date's start ({@code dayShift} 0) or end ({@code dayShift} 1: the last millisecond of the day). */
    private static Instant instant(String name, String value, int dayShift) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return LocalDate.parse(value).plusDays(dayShift).atStartOfDay(ZoneOffset.UTC).toInstant().minusMillis(dayShift);
            } catch (DateTimeParseException notADate) {
                throw bad("problem.audit.instant", "{0} must be an ISO-8601 instant such as 2026-12-01T00:00:00Z, not ''{1}''", name, value);
            }
        }
    }

    private static int limit(String value) {
        if (value == null) {
            return AdminAudit.DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= AdminAudit.MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below, like a number out of range
        }
        throw bad("problem.audit.limit", "limit must be a whole number from 1 to {0}, not ''{1}''", AdminAudit.MAX_LIMIT, value);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static InvalidInputException bad(String key, String pattern, Object... args) {
        return new InvalidInputException(Message.of(key, pattern, args));
    }
}
