package dev.amcp.gateway.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.amcp.gateway.demo.control.DemoStore;
import org.junit.jupiter.api.Test;

/** The demo store bounds what anonymous writes may add: the length of a note and the number of orders. */
class DemoStoreTest {

    @Test
    void aNoteLongerThanTheCapIsRefusedAndNothingIsAdded() {
        DemoStore store = new DemoStore();
        int before = store.orders(null, null, Integer.MAX_VALUE).size();
        var refused = assertThrows(IllegalArgumentException.class,
                () -> store.createOrder(1, "SKU-001", 1, "x".repeat(DemoStore.MAX_NOTE_CHARS + 1)));
        assertEquals("note is longer than 1000 characters", refused.getMessage());
        assertEquals(before, store.orders(null, null, Integer.MAX_VALUE).size());
        assertEquals("x".repeat(DemoStore.MAX_NOTE_CHARS), store.createOrder(1, "SKU-001", 1, "x".repeat(DemoStore.MAX_NOTE_CHARS)).note());
    }

    @Test
    void theStoreStopsAtItsOrderCap() {
        DemoStore store = new DemoStore();
        while (store.orders(null, null, Integer.MAX_VALUE).size() < DemoStore.MAX_ORDERS) {
            store.createOrder(1, "SKU-001", 1, null);
        }
        var full = assertThrows(DemoStore.FullException.class, () -> store.createOrder(1, "SKU-001", 1, null));
        assertTrue(full.getMessage().contains("maximum of 5000 orders"), full.getMessage());
        assertEquals(DemoStore.MAX_ORDERS, store.orders(null, null, Integer.MAX_VALUE).size());
    }
}
