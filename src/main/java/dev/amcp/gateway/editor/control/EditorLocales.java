package dev.amcp.gateway.editor.control;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/** The editor's languages and how one is chosen: the switcher's choice first, then {@code Accept-Language}. */
public final class EditorLocales {

    public static final List<String> SUPPORTED = List.of("en", "it", "de");
    public static final String COOKIE = "amcp_lang";

    private EditorLocales() {}

    public static boolean supported(String language) {
        return language != null && SUPPORTED.contains(language);
    }

    /** @param chosen the switcher's cookie value, or {@code null}; @param accepted the request's locales in preference order */
    public static Locale resolve(String chosen, Enumeration<Locale> accepted) {
        if (supported(chosen)) {
            return Locale.forLanguageTag(chosen);
        }
        for (Locale locale : accepted == null ? List.<Locale>of() : Collections.list(accepted)) {
            if (supported(locale.getLanguage())) {
                return Locale.forLanguageTag(locale.getLanguage());
            }
        }
        return Locale.ENGLISH;
    }
}
