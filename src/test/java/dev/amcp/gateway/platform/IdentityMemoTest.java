package dev.amcp.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.amcp.gateway.platform.control.IdentityMemo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the memo keeps, by which key, and what it forgets. */
class IdentityMemoTest {

    @Test
    void remembersByIdentityNotByEquality() {
        AtomicInteger calls = new AtomicInteger();
        IdentityMemo<List<String>, String> memo = new IdentityMemo<>(8, list -> calls.incrementAndGet() + ":" + list);
        List<String> first = new ArrayList<>(List.of("a"));
        List<String> equalTwin = new ArrayList<>(List.of("a"));
        String made = memo.apply(first);
        assertSame(made, memo.apply(first), "the same object is answered from memory");
        assertEquals("2:[a]", memo.apply(equalTwin), "an equal but different object is computed afresh");
        assertEquals(2, calls.get());
    }

    @Test
    void startsOverBeyondItsCapacity() {
        AtomicInteger calls = new AtomicInteger();
        IdentityMemo<Object, Integer> memo = new IdentityMemo<>(2, key -> calls.incrementAndGet());
        Object a = new Object();
        memo.apply(a);
        memo.apply(new Object());
        memo.apply(new Object()); // the third entry clears the first two
        assertEquals(3, calls.get());
        memo.apply(a);
        assertEquals(4, calls.get(), "a forgotten key is computed again");
    }

    @Test
    void aFailureIsNotRemembered() {
        AtomicInteger calls = new AtomicInteger();
        IdentityMemo<Object, String> memo = new IdentityMemo<>(4, key -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalArgumentException("not yet");
            }
            return "ok";
        });
        Object key = new Object();
        assertThrows(IllegalArgumentException.class, () -> memo.apply(key));
        assertEquals("ok", memo.apply(key));
    }
}
