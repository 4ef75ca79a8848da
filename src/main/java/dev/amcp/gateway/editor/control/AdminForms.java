package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.governance.entity.Capability;
import dev.amcp.gateway.workspace.entity.RoleDraft;
import dev.amcp.gateway.workspace.entity.UserChange;
import dev.amcp.gateway.workspace.entity.WorkspaceDraft;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns the administration forms (people, roles, keys) into the drafts that the same services as the REST API take.
 * The forms only carry fields over; every rule (names, passwords, known capabilities and servers, the last admin) is
 * the services' to check, so the editor and REST refuse the same things.
 */
public final class AdminForms {

    /** The capabilities a role form offers, in a stable order. */
    public static final List<String> CAPABILITIES = Capability.ALL.stream().sorted().toList();

    /** The scope choice of the role form: every server of the workspace. */
    public static final String ALL_SERVERS = "all";

    private AdminForms() {}

    /** A new person: an empty password means none (they cannot sign in to the editor until one is set). */
    public static WorkspaceDraft.AccountDraft account(Function<String, String> param) {
        return new WorkspaceDraft.AccountDraft(trim(param.apply("username")), blankToNull(param.apply("displayName")),
                emptyToNull(param.apply("password")), blankToNull(param.apply("email")));
    }

    /** A change of role and, when one is typed, password; the enabled flag has its own buttons. */
    public static UserChange userChange(Function<String, String> param) {
        return new UserChange(blankToNull(param.apply("role")), null, emptyToNull(param.apply("password")));
    }

    /**
     * A role's capabilities and scope: {@code scope=all} is every server, now and later; otherwise the ticked
     * {@code servers}, which may be none.
     */
    public static RoleDraft role(String name, Function<String, String> param, Function<String, String[]> values) {
        boolean all = ALL_SERVERS.equals(param.apply("scope"));
        Set<String> servers = all ? null : strings(values.apply("servers"));
        return new RoleDraft(name, strings(values.apply("capabilities")), all, servers, "true".equals(param.apply("approveWrites")));
    }

    /**
     * A key's expiry from a date field: the key works through that day (UTC). Empty: no expiry. A date that does not
     * parse is a field problem in the person's language; one in the past is the service's to refuse.
     */
    public static Instant expiry(String date, Locale locale, Map<String, String> errors) {
        String text = trim(date);
        if (text.isEmpty()) {
            return null;
        }
        try {
            return LocalDate.parse(text).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            errors.put("expiresAt", EditorMessages.get(locale, "keys.error.expires"));
            return null;
        }
    }

    public static String trim(String value) {
        return value == null ? "" : value.strip();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static Set<String> strings(String[] values) {
        return values == null ? new LinkedHashSet<>() : new LinkedHashSet<>(Arrays.asList(values));
    }
}
