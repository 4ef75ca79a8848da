package dev.amcp.gateway.editor.control;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/** The editor's UI strings (en, it, de) for messages built in code; pages read the same bundle through JSTL. */
public final class EditorMessages {

    public static final String BUNDLE = "dev.amcp.gateway.editor.messages";

    private EditorMessages() {}

    public static ResourceBundle bundle(Locale locale) {
        return ResourceBundle.getBundle(BUNDLE, locale, EditorMessages.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    public static String get(Locale locale, String key, Object... args) {
        String pattern;
        try {
            pattern = bundle(locale).getString(key);
        } catch (MissingResourceException e) {
            return "???" + key + "???";
        }
        return args.length == 0 ? pattern : new MessageFormat(pattern, locale).format(args);
    }
}
