package dev.amcp.gateway.platform.control;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Correlation fields for log lines (request id, later run id) on the current thread.
 *
 * <p>On Open Liberty each field is also added to Liberty's {@code LogRecordContext}, so with JSON logging
 * ({@code AMCP_LOG_FORMAT=JSON}, or {@code WLP_LOGGING_MESSAGE_FORMAT=JSON} for messages.log) <em>every</em> log
 * line written on the thread carries it as {@code ext_<name>}, whichever component logs it. Elsewhere (unit tests)
 * the fields are kept only in this class. The Liberty API is reached reflectively so the WAR has no compile-time
 * dependency on it and still works where it is hidden.
 *
 * <p>Use it as a scope: {@code try (var scope = LogContext.put("runId", id)) { ... }}; closing restores the
 * previous value.
 */
public final class LogContext {

    public static final String REQUEST_ID = "requestId";
    public static final String RUN_ID = "runId";

    private static final Logger LOG = Logger.getLogger(LogContext.class.getName());
    private static final ThreadLocal<Map<String, String>> FIELDS = ThreadLocal.withInitial(LinkedHashMap::new);
    private static final MethodHandle ADD;
    private static final MethodHandle REMOVE;

    static {
        MethodHandle add = null;
        MethodHandle remove = null;
        try {
            Class<?> context = Class.forName("com.ibm.websphere.logging.hpel.LogRecordContext", false, LogContext.class.getClassLoader());
            var lookup = MethodHandles.publicLookup();
            add = lookup.findStatic(context, "addExtension", MethodType.methodType(void.class, String.class, String.class));
            remove = lookup.findStatic(context, "removeExtension", MethodType.methodType(boolean.class, String.class));
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.log(Level.FINE, "Liberty LogRecordContext not available; log correlation fields stay in-process", e);
        }
        ADD = add;
        REMOVE = remove;
    }

    private LogContext() {}

    /** Whether fields reach Liberty's JSON log records. */
    public static boolean reachesLibertyLogs() {
        return ADD != null;
    }

    /** Sets a field for the current thread until the returned scope is closed. */
    public static Scope put(String name, String value) {
        Map<String, String> fields = FIELDS.get();
        String previous = fields.put(name, value);
        publish(name, value);
        return () -> {
            if (previous == null) {
                fields.remove(name);
                unpublish(name);
            } else {
                fields.put(name, previous);
                publish(name, previous);
            }
        };
    }

    /** The field's value on the current thread, or null. */
    public static String get(String name) {
        return FIELDS.get().get(name);
    }

    /** The request id of the current thread, or null outside a request. */
    public static String requestId() {
        return get(REQUEST_ID);
    }

    /** A snapshot of the current thread's fields, to carry onto another thread with {@link #restore(Map)}. */
    public static Map<String, String> snapshot() {
        return Map.copyOf(FIELDS.get());
    }

    /** Applies a snapshot on this thread (for work handed to an executor); closing the scope removes it again. */
    public static Scope restore(Map<String, String> snapshot) {
        var scopes = snapshot.entrySet().stream().map(e -> put(e.getKey(), e.getValue())).toList();
        return () -> {
            for (int i = scopes.size() - 1; i >= 0; i--) {
                scopes.get(i).close();
            }
        };
    }

    private static void publish(String name, String value) {
        if (ADD != null) {
            try {
                ADD.invokeExact(name, value);
            } catch (Throwable e) {
                LOG.log(Level.FINE, "LogRecordContext.addExtension failed", e);
            }
        }
    }

    private static void unpublish(String name) {
        if (REMOVE != null) {
            try {
                boolean ignored = (boolean) REMOVE.invokeExact(name);
            } catch (Throwable e) {
                LOG.log(Level.FINE, "LogRecordContext.removeExtension failed", e);
            }
        }
    }

    /** A field's lifetime; closing never throws. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
