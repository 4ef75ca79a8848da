package dev.amcp.gateway.platform.control;

/**
 * Quoting what others wrote (an identity provider's error, a token's claim, a client's id) inside a message: cut to a
 * length, so a hostile value cannot flood a log line or a page, and where it reaches a header or a log, printable.
 */
public final class Texts {

    private Texts() {}

    /** The text cut to {@code max} characters plus an ellipsis; {@code null} is empty. */
    public static String clip(String text, int max) {
        if (text == null) {
            return "";
        }
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    /** As {@link #clip}, with every character outside printable ASCII (controls, line breaks) shown as {@code ?}. */
    public static String printable(String text, int max) {
        return clip(text == null ? null : text.replaceAll("[^\\x20-\\x7e]", "?"), max);
    }
}
