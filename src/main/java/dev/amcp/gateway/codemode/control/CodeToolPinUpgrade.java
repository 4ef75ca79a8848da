package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeToolSpec;
import dev.amcp.gateway.platform.control.Hashes;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.tools.entity.McpTool;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.logging.Logger;

/**
 * Carries code tools saved before the pin covered the whole definition onto the {@link CodeToolPin}. Such a tool
 * holds the SHA-256 of its code alone; at start it is re-pinned to its whole definition as stored, which is what
 * the earlier release ran. A pin of any other shape is left as it is, so a tampered tool still refuses to run.
 */
@ApplicationScoped
public class CodeToolPinUpgrade {

    private static final Logger LOG = Logger.getLogger(CodeToolPinUpgrade.class.getName());

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    CodeToolDrift drift;

    void upgradeOnStart(@Observes @Priority(Migrations.PRIORITY + 10) Startup startup) {
        int upgraded = upgradeCodeOnlyPins();
        if (upgraded > 0) {
            LOG.info(() -> "Re-pinned " + upgraded + " code tool(s) saved with a code-only pin to their whole definition");
        }
        int pinned = pinUsedSchemas();
        if (pinned > 0) {
            LOG.info(() -> "Pinned the used tools' schemas of " + pinned + " code tool(s) saved before schema drift was checked");
        }
    }

    /** Pins the used tools' schemas, as they are now, of code tools saved before pins existed; answers how many. */
    @Transactional
    public int pinUsedSchemas() {
        int pinned = 0;
        for (McpTool tool : em.createQuery("select t from McpTool t where t.method = :code and t.usesSchemaPins is null", McpTool.class)
                .setParameter("code", McpTool.CODE).getResultList()) {
            tool.setUsesSchemaPins(drift.pins(tool.getWorkspaceId(), CodeToolSpec.from(tool.getEndpointMapping()).uses()));
            pinned++;
        }
        return pinned;
    }

    /** Re-pins every code tool whose pin is the hash of its code alone; answers how many. */
    @Transactional
    public int upgradeCodeOnlyPins() {
        int upgraded = 0;
        for (McpTool tool : em.createQuery("select t from McpTool t where t.method = :code", McpTool.class)
                .setParameter("code", McpTool.CODE).getResultList()) {
            CodeToolSpec spec = CodeToolSpec.from(tool.getEndpointMapping());
            if (Hashes.sha256(spec.code()).equals(tool.getPinnedCodeSha256())) {
                tool.pinDefiner(tool.getDefinerUserId(), tool.getDefinerRoleId(), CodeToolPin.of(spec, tool.getInputSchema()));
                upgraded++;
            }
        }
        return upgraded;
    }
}
