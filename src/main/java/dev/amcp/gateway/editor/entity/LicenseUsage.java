package dev.amcp.gateway.editor.entity;

import dev.amcp.gateway.governance.entity.LicenseTerms;
import java.util.List;

/**
 * The license in force with the workspace's use of it, and the warnings to show (already in the person's language).
 * A class with getters rather than a record, because pages read it through Jakarta EL.
 */
public final class LicenseUsage {

    private final LicenseTerms terms;
    private final long codeTools;
    private final long runsThisMonth;
    private final List<String> warnings;

    /**
     * @param codeTools     code tools of the workspace, against {@code maxCodeTools}
     * @param runsThisMonth code runs this calendar month (UTC) that count against {@code monthlyCodeRuns}
     */
    public LicenseUsage(LicenseTerms terms, long codeTools, long runsThisMonth, List<String> warnings) {
        this.terms = terms;
        this.codeTools = codeTools;
        this.runsThisMonth = runsThisMonth;
        this.warnings = List.copyOf(warnings);
    }

    public long getCodeTools() { return codeTools; }
    public long getRunsThisMonth() { return runsThisMonth; }
    public List<String> getWarnings() { return warnings; }
    public String getEdition() { return terms.edition().wire(); }
    public String getLicensee() { return terms.licensee(); }
    public String getExpiresAt() { return terms.expiresAt() == null ? "" : terms.expiresAt().toString(); }
    public int getMaxCodeTools() { return terms.maxCodeTools(); }
    public long getMonthlyCodeRuns() { return terms.monthlyCodeRuns(); }
    public boolean isAllowsWrites() { return terms.allowsWrites(); }
    public boolean isPaid() { return terms.edition().paid(); }
}
