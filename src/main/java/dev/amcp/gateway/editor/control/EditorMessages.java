package dev.amcp.gateway.editor.control;

import dev.amcp.gateway.platform.entity.Message;
import java.text.MessageFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The editor's UI strings (en, it, de) for messages built in code; pages read the same bundle through JSTL. The
 * services' messages (gate refusals, field problems, notices) are translated here by their keys.
 */
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

    /** A service's message in this language; its English text if the bundles lack the key (a test sees they do not). */
    public static String get(Locale locale, Message message) {
        try {
            return message.in(bundle(locale).getString(message.key()), locale);
        } catch (MissingResourceException e) {
            return message.english();
        }
    }

    /** A service's messages by field, in this language and in the same order. */
    public static Map<String, String> get(Locale locale, Map<String, Message> messages) {
        Map<String, String> translated = new LinkedHashMap<>();
        messages.forEach((field, message) -> translated.put(field, get(locale, message)));
        return translated;
    }

    public static List<String> get(Locale locale, List<Message> messages) {
        return messages.stream().map(m -> get(locale, m)).toList();
    }
}
