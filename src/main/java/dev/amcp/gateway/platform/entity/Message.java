package dev.amcp.gateway.platform.entity;

import java.text.MessageFormat;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A message for people that a service reports (a gate's refusal, a field's problem, a notice): a key, the arguments
 * of its pattern, and the English pattern. REST and MCP clients get the English text; the editor looks the key up
 * in its bundles and shows the message in the page's language.
 * <p>
 * Patterns are {@link MessageFormat} patterns (a single quote is written {@code ''}). Arguments are kept as text,
 * so numbers read the same in every language and in the English wire text ({@code 100000}, not {@code 100,000}).
 */
public record Message(String key, String englishPattern, List<String> args) implements java.io.Serializable {

    public Message {
        args = List.copyOf(args);
    }

    public static Message of(String key, String englishPattern, Object... args) {
        return new Message(key, englishPattern, Arrays.stream(args).map(String::valueOf).toList());
    }

    /** Messages by field as REST and MCP clients receive them, in the same order. */
    public static Map<String, String> english(Map<String, Message> messages) {
        Map<String, String> english = new LinkedHashMap<>();
        messages.forEach((field, message) -> english.put(field, message.english()));
        return english;
    }

    /** The text REST and MCP clients receive. */
    public String english() {
        return in(englishPattern, Locale.ENGLISH);
    }

    /** This message's arguments put into a pattern of another language (the same key, translated). */
    public String in(String pattern, Locale locale) {
        return new MessageFormat(pattern, locale).format(args.toArray());
    }

    @Override
    public String toString() {
        return english();
    }
}
