package dev.amcp.gateway.platform.control;

import dev.amcp.gateway.platform.entity.ExpectedRefusal;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import jakarta.transaction.TransactionalException;
import jakarta.transaction.Transactional.TxType;

/**
 * Keeps expected refusals (bad input, a missing item, a conflict, a gate, a wrong master key) out of Liberty's incident
 * log. Liberty's transaction interceptor writes an FFDC incident for every runtime exception that leaves a
 * {@code @Transactional} method, though a refusal is answered with a 4xx and is part of the contract. So, just inside
 * that interceptor, a refusal marks the transaction rollback-only (as Liberty does for a runtime exception) and leaves
 * as a checked {@link Carried}, which Liberty passes on without an incident (wrapped in a
 * {@link TransactionalException}) after rolling back; just outside, the refusal itself is thrown again. Callers see
 * exactly what they saw before. Anything else (a bug, a database failure) still reaches FFDC.
 */
public final class QuietRefusals {

    /** Liberty's transaction interceptors run at this priority. */
    static final int TRANSACTIONS = Interceptor.Priority.PLATFORM_BEFORE + 200;

    private QuietRefusals() {
    }

    static boolean expected(Throwable e) {
        return e instanceof IllegalArgumentException || e instanceof ExpectedRefusal;
    }

    /** A refusal on its way through Liberty's transaction interceptor; no stack of its own. */
    static final class Carried extends Exception {
        final RuntimeException refusal;

        Carried(RuntimeException refusal) {
            super(null, null, false, false);
            this.refusal = refusal;
        }
    }

    /** Just inside Liberty's transaction interceptor: a refusal marks the transaction and leaves as {@link Carried}. */
    abstract static class Inside {
        @Resource
        TransactionSynchronizationRegistry transactions;

        @AroundInvoke
        Object carryRefusal(InvocationContext context) throws Exception {
            try {
                return context.proceed();
            } catch (RuntimeException e) {
                if (!expected(e)) {
                    throw e;
                }
                if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
                    transactions.setRollbackOnly();
                }
                throw new Carried(e);
            }
        }
    }

    /** Just outside it: the refusal itself again. */
    abstract static class Outside {
        @AroundInvoke
        Object unwrapRefusal(InvocationContext context) throws Exception {
            try {
                return context.proceed();
            } catch (Carried carried) {
                throw carried.refusal;
            } catch (TransactionalException e) { // how Liberty passes on a checked exception the method does not declare
                if (e.getCause() instanceof Carried carried) {
                    throw carried.refusal;
                }
                throw e;
            }
        }
    }

    // One pair per transaction type the gateway uses: @Transactional's value is part of the binding.

    @Transactional(TxType.REQUIRED) @Interceptor @Priority(TRANSACTIONS - 1)
    public static class RequiredOutside extends Outside {}

    @Transactional(TxType.REQUIRED) @Interceptor @Priority(TRANSACTIONS + 1)
    public static class RequiredInside extends Inside {}

    @Transactional(TxType.REQUIRES_NEW) @Interceptor @Priority(TRANSACTIONS - 1)
    public static class RequiresNewOutside extends Outside {}

    @Transactional(TxType.REQUIRES_NEW) @Interceptor @Priority(TRANSACTIONS + 1)
    public static class RequiresNewInside extends Inside {}

    @Transactional(TxType.SUPPORTS) @Interceptor @Priority(TRANSACTIONS - 1)
    public static class SupportsOutside extends Outside {}

    @Transactional(TxType.SUPPORTS) @Interceptor @Priority(TRANSACTIONS + 1)
    public static class SupportsInside extends Inside {}

    @Transactional(TxType.MANDATORY) @Interceptor @Priority(TRANSACTIONS - 1)
    public static class MandatoryOutside extends Outside {}

    @Transactional(TxType.MANDATORY) @Interceptor @Priority(TRANSACTIONS + 1)
    public static class MandatoryInside extends Inside {}
}
