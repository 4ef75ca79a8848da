package dev.amcp.gateway.codemode.control;

import dev.amcp.gateway.codemode.entity.CodeRunRequest;
import dev.amcp.gateway.governance.control.LicensedFeature;
import dev.amcp.gateway.governance.entity.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.YearMonth;

/**
 * The door every run passes, judged against the license in force now (not the one the tool was saved under): a run
 * whose bridge may write needs writes to be licensed ({@link CodeModeGates#WRITES}), and every run counts against the
 * monthly quota ({@link CodeModeGates#MONTHLY_RUNS}). Writes are judged first, so a refused run uses no quota.
 */
@ApplicationScoped
public class CodeRunAdmission {

    @LicensedFeature({CodeModeGates.WRITES, CodeModeGates.MONTHLY_RUNS})
    public void admit(Caller invoker, YearMonth month, CodeRunRequest request) {
        // the gate does the judging; reaching here means the run is admitted
    }
}
