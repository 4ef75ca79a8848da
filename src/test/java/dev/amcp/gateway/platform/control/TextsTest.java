package dev.amcp.gateway.platform.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TextsTest {

    @Test
    void clipCutsLongTextAndKeepsShortText() {
        assertEquals("abc", Texts.clip("abc", 3));
        assertEquals("ab…", Texts.clip("abc", 2));
        assertEquals("", Texts.clip(null, 5));
    }

    @Test
    void printableShowsControlsAndNonAsciiAsQuestionMarks() {
        assertEquals("a?b?c?", Texts.printable("a\nb\u0000cé", 10));
        assertEquals("a?…", Texts.printable("a\r\nb", 2));
        assertEquals("", Texts.printable(null, 5));
    }
}
