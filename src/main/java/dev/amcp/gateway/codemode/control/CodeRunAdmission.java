package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.governance.control.LicensedFeature;
import dev.amcp.gateway.governance.entity.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.YearMonth;

/**
 * The door every run passes: the license's monthly code-run quota ({@link CodeModeGates#MONTHLY_RUNS}). An admitted
 * run is counted in {@code month}.
 */
@ApplicationScoped
public class CodeRunAdmission {

    @LicensedFeature(CodeModeGates.MONTHLY_RUNS)
    public void admit(Caller invoker, YearMonth month) {
        // the gate does the judging; reaching here means the run is admitted
    }
}
