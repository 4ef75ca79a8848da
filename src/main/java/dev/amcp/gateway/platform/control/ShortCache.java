package dev.amcp.gateway.platform.control;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Keeps database answers that every request needs (who a key is, which server a slug names, an HTTP tool) for
 * {@value #TTL_SETTING} seconds (default {@value #DEFAULT_TTL_SECONDS}; 0 turns every such cache off). An answer is
 * dropped when its time is up or when the {@code generation} it was read under has moved on (a change on this node);
 * empty answers are never kept, so unknown keys cannot fill it. Beyond {@value #MAX_ENTRIES} entries it starts over.
 */
public final class ShortCache<K, V> {

    static final String TTL_SETTING = "AMCP_ACCESS_CACHE_SECONDS";
    static final int DEFAULT_TTL_SECONDS = 5;
    static final int MAX_ENTRIES = 10_000;

    private record Kept<V>(V value, long generation, long keptUntilNanos) {}

    private final Map<Object, Kept<V>> kept = new ConcurrentHashMap<>();
    private final long ttlNanos;
    private final LongSupplier generation;

    public ShortCache(Settings settings, LongSupplier generation) {
        this.ttlNanos = Math.max(0, settings.getInt(TTL_SETTING, DEFAULT_TTL_SECONDS)) * 1_000_000_000L;
        this.generation = generation;
    }

    /** The kept answer for {@code key}, or else the loader's, kept if present. */
    public Optional<V> get(K key, Function<K, Optional<V>> loader) {
        return get(key, loader, value -> true);
    }

    /** The kept answer for {@code key}, or else the loader's, kept if present and {@code keep} accepts it. */
    public Optional<V> get(K key, Function<K, Optional<V>> loader, Predicate<V> keep) {
        if (ttlNanos == 0) {
            return loader.apply(key);
        }
        // Read before loading: a change that lands during the load makes this answer stale at once.
        long generationNow = generation.getAsLong();
        Kept<V> hit = kept.get(key);
        if (hit != null && hit.generation() == generationNow && System.nanoTime() - hit.keptUntilNanos() < 0) {
            return Optional.of(hit.value());
        }
        Optional<V> loaded = loader.apply(key);
        if (loaded.isEmpty() || !keep.test(loaded.get())) {
            kept.remove(key);
            return loaded;
        }
        if (kept.size() >= MAX_ENTRIES) {
            kept.clear();
        }
        kept.put(key, new Kept<>(loaded.get(), generationNow, System.nanoTime() + ttlNanos));
        return loaded;
    }
}
