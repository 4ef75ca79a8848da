package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.editor.entity.LicenseUsage;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The license page's usage and warnings: code tools against {@code maxCodeTools} (hard on community and trial, soft
 * on paid editions) and this month's runs against {@code monthlyCodeRuns}.
 */
public final class LicenseUsages {

    /** From this share of a limit on, the page warns that it is close. */
    static final int NEAR_PERCENT = 80;

    private LicenseUsages() {}

    public static LicenseUsage of(LicenseTerms terms, long codeTools, long runsThisMonth, Locale locale) {
        List<String> warnings = new ArrayList<>();
        int maxTools = terms.maxCodeTools();
        if (codeTools > maxTools) {
            warnings.add(EditorMessages.get(locale, terms.edition().paid() ? "license.warn.toolsOverSoft" : "license.warn.toolsOver",
                    codeTools, maxTools));
        } else if (codeTools == maxTools) {
            warnings.add(EditorMessages.get(locale, terms.edition().paid() ? "license.warn.toolsAtSoft" : "license.warn.toolsAt", maxTools));
        }
        long maxRuns = terms.monthlyCodeRuns();
        if (runsThisMonth >= maxRuns) {
            warnings.add(EditorMessages.get(locale, "license.warn.runsOver", maxRuns));
        } else if (runsThisMonth * 100 >= maxRuns * NEAR_PERCENT) {
            warnings.add(EditorMessages.get(locale, "license.warn.runsNear", runsThisMonth, maxRuns));
        }
        return new LicenseUsage(terms, codeTools, runsThisMonth, warnings);
    }
}
