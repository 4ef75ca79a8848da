package dev.amcp.gateway.platform.control;

import dev.amcp.gateway.platform.control.MasterKeys.MasterKey;
import dev.amcp.gateway.platform.entity.ConflictException;
import dev.amcp.gateway.platform.entity.DataKey;
import dev.amcp.gateway.platform.entity.ExpectedRefusal;
import dev.amcp.gateway.platform.entity.Message;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Envelope encryption for secrets that features store in the database; it knows nothing of what they are. A secret is
 * sealed with AES-256-GCM under a data key, bound to a context string the caller chooses (so a ciphertext copied to
 * another row does not open there); data keys are stored wrapped by the operator's master key
 * ({@value #MASTER_KEY}, or the file {@value #MASTER_KEY_FILE}). Without a master key the gateway runs, and sealing
 * is refused with a message naming the setting.
 * <p>
 * Rotation: start every node with the new key in {@value #MASTER_KEY} and the old one in {@value #PREVIOUS}; at start
 * each data key wrapped by a previous key is re-wrapped by the current one (one row each; no secret is re-encrypted),
 * after which {@value #PREVIOUS} can go.
 */
@ApplicationScoped
public class SecretBox {

    public static final String MASTER_KEY = "AMCP_MASTER_KEY";
    public static final String MASTER_KEY_FILE = "AMCP_MASTER_KEY_FILE";
    public static final String PREVIOUS = "AMCP_MASTER_KEY_PREVIOUS";
    static final String WRAP_CONTEXT = "amcp data key";
    private static final Logger LOG = Logger.getLogger(SecretBox.class.getName());

    @Inject
    Settings settings;

    @Inject
    SecretBox self;

    @PersistenceContext(unitName = "amcp")
    EntityManager em;

    /** A sealed secret: the data key that sealed it, the ciphertext, and a fingerprint of the value. */
    public record Sealed(long dataKeyId, String ciphertext, String fingerprint) {}

    /**
     * A stored secret that does not open on this node (a master key it lacks, an altered row): the call that needs it
     * is refused with this message, and the node logs one warning per data key, never an incident.
     */
    public static final class CannotOpen extends IllegalStateException implements ExpectedRefusal {
        CannotOpen(String message) {
            super(message);
        }
    }

    private MasterKey current;
    private Map<String, MasterKey> known = Map.of();
    /** Why nothing can be sealed, or null. */
    private String unavailable;
    private final Map<Long, SecretKey> dataKeys = new ConcurrentHashMap<>();
    /** Data keys this node already warned about, so a refused secret is one log line, not one per call. */
    private final Set<Long> warned = ConcurrentHashMap.newKeySet();
    private volatile Long sealingKeyId;

    @PostConstruct
    void init() {
        try {
            Optional<String> inline = settings.get(MASTER_KEY);
            Optional<String> file = settings.get(MASTER_KEY_FILE);
            String setting = inline.isPresent() ? MASTER_KEY : MASTER_KEY_FILE;
            Optional<String> text = inline.isPresent() ? inline : file.map(SecretBox::read);
            current = text.map(t -> MasterKeys.parse(setting, t)).orElse(null);
            List<MasterKey> previous = settings.get(PREVIOUS).map(t -> MasterKeys.parseList(PREVIOUS, t)).orElse(List.of());
            known = MasterKeys.byId(current, previous);
            unavailable = current == null ? "the gateway has no master key: the operator sets " + MASTER_KEY + " (or "
                    + MASTER_KEY_FILE + ") on every node, 32 random bytes in base64 (openssl rand -base64 32)" : null;
        } catch (IllegalArgumentException | IllegalStateException e) {
            current = null;
            unavailable = e.getMessage();
            LOG.severe("Secrets cannot be stored or opened: " + e.getMessage());
        }
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path.strip()), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException(MASTER_KEY_FILE + " names " + path.strip() + ", which cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** Seals a secret for {@code context}; refused (409, naming the setting) without a master key. */
    @Transactional
    public Sealed seal(String plaintext, String context) {
        if (current == null) {
            throw new ConflictException(Message.of("problem.secret.noMasterKey", "Secrets cannot be stored: {0}", unavailable));
        }
        DataKey row = sealingKey();
        SecretKey key = unwrapped(row);
        return new Sealed(row.getId(), MasterKeys.encrypt(key, plaintext.getBytes(StandardCharsets.UTF_8), context),
                MasterKeys.fingerprint(key, plaintext));
    }

    /** Opens a secret sealed for {@code context}; {@link CannotOpen} says why it cannot be opened. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public String open(long dataKeyId, String ciphertext, String context) {
        SecretKey key = dataKeys.get(dataKeyId);
        if (key == null) {
            DataKey row = em.find(DataKey.class, dataKeyId);
            if (row == null) {
                throw refused(dataKeyId, "the secret's data key " + dataKeyId + " is missing");
            }
            key = unwrapped(row);
        }
        try {
            return new String(MasterKeys.decrypt(key, ciphertext, context), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw refused(dataKeyId, "the stored secret does not open: it was not sealed for this place, or it was altered");
        }
    }

    /** The newest data key of the current master key, made on first use. */
    private DataKey sealingKey() {
        Long id = sealingKeyId;
        DataKey row = id == null ? null : em.find(DataKey.class, id);
        if (row == null || !row.getMasterKeyId().equals(current.id())) {
            row = em.createQuery("select k from DataKey k where k.masterKeyId = :master order by k.id desc", DataKey.class)
                    .setParameter("master", current.id()).setMaxResults(1).getResultStream().findFirst().orElse(null);
        }
        if (row == null) {
            SecretKey fresh = MasterKeys.newKey();
            row = new DataKey(MasterKeys.encrypt(current.key(), fresh.getEncoded(), WRAP_CONTEXT), current.id(), Instant.now());
            em.persist(row);
            em.flush();
            dataKeys.put(row.getId(), fresh);
        }
        sealingKeyId = row.getId();
        return row;
    }

    private SecretKey unwrapped(DataKey row) {
        return dataKeys.computeIfAbsent(row.getId(), id -> {
            MasterKey master = known.get(row.getMasterKeyId());
            if (master == null) {
                throw refused(id, "the secret's data key " + id + " is wrapped by master key " + row.getMasterKeyId()
                        + ", which this node does not have (" + MASTER_KEY + ", " + PREVIOUS + ")");
            }
            try {
                return new SecretKeySpec(MasterKeys.decrypt(master.key(), row.getWrapped(), WRAP_CONTEXT), "AES");
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw refused(id, "data key " + id + " does not open with master key " + master.id());
            }
        });
    }

    private CannotOpen refused(long dataKeyId, String why) {
        if (warned.add(dataKeyId)) {
            LOG.warning(() -> "A stored secret cannot be opened on this node, so the calls that need it are refused: " + why);
        }
        return new CannotOpen(why);
    }

    /** At start: re-wraps what previous master keys wrapped (see the class comment). */
    void rewrapOnStart(@Observes @Priority(Migrations.PRIORITY + 6) Startup startup) {
        if (current == null) {
            return;
        }
        try {
            Rotation done = self.rewrap();
            if (done.rewrapped() > 0) {
                LOG.info(() -> "Re-wrapped " + done.rewrapped() + " data key(s) under master key " + current.id()
                        + "; " + PREVIOUS + " can be removed once every node runs with " + MASTER_KEY);
            }
            if (!done.unknownMasterKeys().isEmpty()) {
                LOG.warning(() -> "Secrets under master key(s) " + done.unknownMasterKeys() + " cannot be opened on this node: "
                        + "set the key(s) in " + PREVIOUS);
            }
        } catch (RuntimeException e) {
            LOG.severe("Re-wrapping the data keys failed: " + e);
        }
    }

    /** What a re-wrap did: rows re-wrapped, and the ids of master keys this node does not have that still wrap rows. */
    public record Rotation(int rewrapped, List<String> unknownMasterKeys) {}

    /** Re-wraps every data key wrapped by a previous master key; a row another node re-wrapped first is left alone. */
    @Transactional
    public Rotation rewrap() {
        int count = 0;
        for (DataKey row : em.createQuery("select k from DataKey k where k.masterKeyId <> :current", DataKey.class)
                .setParameter("current", current.id()).getResultList()) {
            if (!known.containsKey(row.getMasterKeyId())) {
                continue;
            }
            String wrapped = MasterKeys.encrypt(current.key(), unwrapped(row).getEncoded(), WRAP_CONTEXT);
            count += em.createQuery("update DataKey k set k.wrapped = :wrapped, k.masterKeyId = :current, k.rewrappedAt = :at "
                            + "where k.id = :id and k.masterKeyId = :previous")
                    .setParameter("wrapped", wrapped).setParameter("current", current.id()).setParameter("at", Instant.now())
                    .setParameter("id", row.getId()).setParameter("previous", row.getMasterKeyId()).executeUpdate();
        }
        List<String> unknown = em.createQuery("select distinct k.masterKeyId from DataKey k where k.masterKeyId <> :current", String.class)
                .setParameter("current", current.id()).getResultStream().filter(id -> !known.containsKey(id)).sorted().toList();
        return new Rotation(count, unknown);
    }
}
