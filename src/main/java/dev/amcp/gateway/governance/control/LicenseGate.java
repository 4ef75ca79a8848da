package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.entity.Message;

/**
 * One license rule, named so {@link LicensedFeature} can refer to it. Features implement their gates as CDI beans
 * next to the data they count; the interceptor is the only caller.
 */
public interface LicenseGate {

    String name();

    /** Judges a call with its arguments against the license terms. */
    Decision judge(LicenseTerms terms, Object[] arguments);

    /** The verdict: allowed, allowed with a warning (soft limit), or refused, each with a message for people. */
    record Decision(Verdict verdict, Message message) {
        public enum Verdict { ALLOW, WARN, REFUSE }

        public static Decision allow() {
            return new Decision(Verdict.ALLOW, null);
        }

        public static Decision warn(Message message) {
            return new Decision(Verdict.WARN, message);
        }

        public static Decision refuse(Message message) {
            return new Decision(Verdict.REFUSE, message);
        }
    }
}
