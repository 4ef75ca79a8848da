package dev.amcp.gateway.editor.entity;

/**
 * One line of a line diff.
 *
 * @param kind {@code same}, {@code added} (only in the new text) or {@code removed} (only in the old text)
 */
public record DiffLine(String kind, String text) {

    public static final String SAME = "same";
    public static final String ADDED = "added";
    public static final String REMOVED = "removed";
}
