package dev.amcp.gateway.governance.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.governance.entity.CallScope;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.RoleGrant;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The audit log's filters, as REST and the editor both read them. */
class AuditFiltersTest {

    private static final Caller ADMIN = new Caller(1, 2L, null, "ada", new RoleGrant(3, "admin", Set.of("admin"), true, Set.of()),
            CallScope.UNRESTRICTED);
    private static final Caller OPERATOR = Caller.operator(9L, null, "root");

    private static AdminAudit.Query parse(Caller who, String kind, String actor, String since, String until, String limit, String ws) {
        return AuditFilters.parse(who, new AuditFilters.Typed(kind, actor, since, until, limit, ws),
                slug -> "acme".equals(slug) ? Optional.of(42L) : Optional.empty());
    }

    @Test
    void blanksDoNotFilterAndDatesCoverWholeDays() {
        AdminAudit.Query none = parse(ADMIN, "", " ", null, "", null, null);
        assertNull(none.kind());
        assertNull(none.actor());
        assertEquals(AdminAudit.DEFAULT_LIMIT, none.limit());

        AdminAudit.Query days = parse(ADMIN, "role", "ada", "2026-12-01", "2026-12-01", "5", null);
        assertEquals(Instant.parse("2026-12-01T00:00:00Z"), days.since());
        assertEquals(Instant.parse("2026-12-01T23:59:59.999Z"), days.until());
        assertEquals(5, days.limit());
        assertEquals(Instant.parse("2026-12-01T10:00:00Z"), parse(ADMIN, null, null, "2026-12-01T10:00:00Z", null, null, null).since());
        assertEquals(42L, parse(OPERATOR, null, null, null, null, null, "acme").workspaceId());
    }

    @Test
    void badValuesSayWhatIsValid() {
        assertEquals("problem.audit.kind", assertThrows(InvalidInputException.class, () -> parse(ADMIN, "nonsense", null, null, null, null, null)).problem().key());
        assertEquals("problem.audit.actor", assertThrows(InvalidInputException.class, () -> parse(ADMIN, null, "a b", null, null, null, null)).problem().key());
        assertEquals("problem.audit.instant", assertThrows(InvalidInputException.class, () -> parse(ADMIN, null, null, "yesterday", null, null, null)).problem().key());
        assertEquals("problem.audit.instant", assertThrows(InvalidInputException.class, () -> parse(ADMIN, null, null, null, "2026-13-01", null, null)).problem().key());
        assertEquals("problem.audit.limit", assertThrows(InvalidInputException.class, () -> parse(ADMIN, null, null, null, null, "501", null)).problem().key());
        assertEquals("problem.audit.workspace", assertThrows(InvalidInputException.class, () -> parse(ADMIN, null, null, null, null, null, "acme")).problem().key());
        assertEquals("problem.audit.noWorkspace", assertThrows(InvalidInputException.class, () -> parse(OPERATOR, null, null, null, null, null, "other")).problem().key());
    }
}
