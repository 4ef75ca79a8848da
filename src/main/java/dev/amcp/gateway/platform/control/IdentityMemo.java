package dev.amcp.gateway.platform.control;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Remembers what a pure function made of one particular object, keyed by that object's identity rather than its
 * equality. A tool's schema and mapping are JSON objects whose equality walks the whole tree; the cached tool keeps
 * the same instances between edits, so identity finds them in constant time. Beyond its capacity it starts over,
 * which bounds both memory and the objects it keeps alive. A function that throws remembers nothing.
 */
public final class IdentityMemo<K, V> {

    private record Identity(Object key) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Identity that && that.key == key;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(key);
        }
    }

    private final Map<Identity, V> memo = new ConcurrentHashMap<>();
    private final int capacity;
    private final Function<K, V> function;

    public IdentityMemo(int capacity, Function<K, V> function) {
        this.capacity = capacity;
        this.function = function;
    }

    public V apply(K key) {
        Identity identity = new Identity(key);
        V known = memo.get(identity);
        if (known != null) {
            return known;
        }
        V made = function.apply(key);
        if (memo.size() >= capacity) {
            memo.clear();
        }
        memo.put(identity, made);
        return made;
    }
}
