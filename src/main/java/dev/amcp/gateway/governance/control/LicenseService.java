package dev.amcp.gateway.governance.control;

import dev.amcp.gateway.governance.entity.AdminChange;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.governance.entity.License;
import dev.amcp.gateway.governance.entity.LicenseTerms;
import dev.amcp.gateway.platform.control.JsonSupport;
import dev.amcp.gateway.platform.control.Migrations;
import dev.amcp.gateway.platform.control.Settings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

/**
 * The installed license. Documents are verified before they are stored and again whenever they are read, so an
 * edited database row counts for nothing. Without a valid license the community terms apply.
 */
@ApplicationScoped
public class LicenseService {

    /** Extra trusted public keys (base64, comma-separated); for test and staging licenses. */
    public static final String EXTRA_KEYS_SETTING = "AMCP_LICENSE_EXTRA_TRUSTED_KEYS";
    private static final Logger LOG = Logger.getLogger(LicenseService.class.getName());
    private static final long CACHE_MILLIS = 5_000;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    @Inject
    Settings settings;

    @Inject
    Event<AdminChange> changes;

    /** Through the proxy, so {@link #store}'s transaction applies at start-up (a call on {@code this} bypasses it). */
    @Inject
    LicenseService self;

    private LicenseVerifier verifier;
    private volatile LicenseTerms cached;
    private volatile long cachedAt;

    @PostConstruct
    void init() {
        List<String> keys = new ArrayList<>(List.of(LicenseVerifier.PRODUCTION_KEY));
        settings.get(EXTRA_KEYS_SETTING).ifPresent(v -> Arrays.stream(v.split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).forEach(keys::add));
        verifier = new LicenseVerifier(keys);
    }

    /** Installs {@code AMCP_LICENSE} (a document) or {@code AMCP_LICENSE_FILE} (a path) at start, when set. */
    void installFromEnvironment(@Observes @Priority(Migrations.PRIORITY + 5) Startup startup) {
        try {
            String document = settings.get("AMCP_LICENSE").orElse(null);
            if (document == null && settings.get("AMCP_LICENSE_FILE").isPresent()) {
                document = Files.readString(Path.of(settings.get("AMCP_LICENSE_FILE").get()));
            }
            if (document != null) {
                LicenseTerms terms = self.store(document);
                LOG.info(() -> "Installed the " + terms.edition().wire() + " license of " + terms.licensee() + " from the environment");
            }
        } catch (IOException | RuntimeException e) {
            LOG.severe("The license from AMCP_LICENSE / AMCP_LICENSE_FILE was not installed: " + e.getMessage());
        }
    }

    /** The terms in force now. */
    public LicenseTerms current() {
        long now = System.currentTimeMillis();
        LicenseTerms terms = cached;
        if (terms == null || now - cachedAt > CACHE_MILLIS) {
            terms = load();
            cached = terms;
            cachedAt = now;
        }
        return terms;
    }

    /** Installs a license for the whole instance; only an operator may. */
    @RequiresOperator
    @Transactional
    public LicenseTerms install(Caller caller, String document) {
        JsonObject before = snapshot(load());
        LicenseTerms terms = store(document);
        changes.fire(AdminChange.by(caller, null, AdminChange.LICENSE, terms.licensee(), AdminChange.INSTALL, before, snapshot(terms)));
        return terms;
    }

    /** Removes the installed license; the community terms apply again, to every workspace. Only an operator may. */
    @RequiresOperator
    @Transactional
    public LicenseTerms uninstall(Caller caller) {
        JsonObject before = snapshot(load());
        changes.fire(AdminChange.by(caller, null, AdminChange.LICENSE, before.getString("licensee"), AdminChange.REMOVE, before,
                snapshot(LicenseTerms.community())));
        em.createNamedQuery(License.ACTIVE, License.class).getResultList().forEach(License::deactivate);
        cached = null;
        return LicenseTerms.community();
    }

    /**
     * Verifies and installs a license document, ungated: {@link #install} (behind the operator gate) and the start-up
     * install from the settings are its callers. Public, and called through {@link #self}, because Liberty's CDI does
     * not intercept package-private methods: the start-up install ran without its transaction and failed.
     */
    @Transactional
    public LicenseTerms store(String document) {
        LicenseVerifier.Verified verified = verifier.verify(document);
        LicenseTerms terms = verified.terms();
        if (terms.expiredAt(Instant.now())) {
            throw new IllegalArgumentException("The license expired on " + terms.expiresAt());
        }
        em.createNamedQuery(License.ACTIVE, License.class).getResultList().forEach(License::deactivate);
        em.persist(new License(terms.edition().wire(), terms.licensee(), document.strip(), verified.signature(),
                JsonSupport.parseObject(terms.features().toString()), terms.issuedAt(), terms.expiresAt()));
        cached = null;
        return terms;
    }

    /** The terms as the API shows them and the audit log keeps them; the signed document stays in the license table. */
    public static JsonObject snapshot(LicenseTerms terms) {
        var b = JsonSupport.JSON.createObjectBuilder().add("edition", terms.edition().wire()).add("licensee", terms.licensee())
                .add("features", terms.features());
        if (terms.expiresAt() != null) {
            b.add("expiresAt", terms.expiresAt().toString());
        }
        return b.build();
    }

    @Transactional
    LicenseTerms load() {
        List<License> active = em.createNamedQuery(License.ACTIVE, License.class).setMaxResults(1).getResultList();
        if (active.isEmpty()) {
            return LicenseTerms.community();
        }
        try {
            LicenseTerms terms = verifier.verify(active.get(0).getDocument()).terms();
            if (terms.expiredAt(Instant.now())) {
                LOG.warning("The installed license expired on " + terms.expiresAt() + "; community terms apply");
                return LicenseTerms.community();
            }
            return terms;
        } catch (IllegalArgumentException e) {
            LOG.severe("The stored license does not verify (" + e.getMessage() + "); community terms apply");
            return LicenseTerms.community();
        }
    }
}
