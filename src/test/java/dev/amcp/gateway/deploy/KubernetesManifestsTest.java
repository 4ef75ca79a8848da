package dev.amcp.gateway.deploy;

import static dev.amcp.gateway.deploy.ContainerFilesTest.asMap;
import static dev.amcp.gateway.deploy.ContainerFilesTest.list;
import static dev.amcp.gateway.deploy.ContainerFilesTest.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Static checks of {@code deploy/k8s/}: every multi-document file parses, the kustomization lists them all, and
 * the security-relevant fields hold: the runner's container mirrors the compose hardening, its NetworkPolicy
 * denies all egress and admits only gateway pods, the HPA scales the runner Deployment, the gateway runs as
 * non-root with readiness and liveness probes on the health endpoints, and PostgreSQL is an external Service.
 */
class KubernetesManifestsTest {

    static final Path DIR = Path.of("deploy", "k8s");
    static final List<Map<String, Object>> docs = new ArrayList<>();

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws Exception {
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                if (file.getFileName().toString().equals("kustomization.yaml")) {
                    continue;
                }
                try (Reader reader = Files.newBufferedReader(file)) {
                    for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                        if (doc != null) {
                            Map<String, Object> d = asMap(doc, file.toString());
                            assertNotNull(d.get("apiVersion"), file + ": apiVersion");
                            assertNotNull(d.get("kind"), file + ": kind");
                            docs.add(d);
                        }
                    }
                }
            }
        }
    }

    @Test
    void kustomizationListsEveryManifest() throws Exception {
        Map<String, Object> kustomization;
        try (Reader reader = Files.newBufferedReader(DIR.resolve("kustomization.yaml"))) {
            kustomization = asMap(new Yaml(new SafeConstructor(new LoaderOptions())).load(reader), "kustomization");
        }
        Set<String> listed = new TreeSet<>(list(kustomization, "resources").stream().map(String::valueOf).toList());
        Set<String> present = new TreeSet<>();
        try (Stream<Path> files = Files.list(DIR)) {
            files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).forEach(present::add);
        }
        assertEquals(present, listed);
    }

    @Test
    void runnerContainerMirrorsTheComposeHardening() {
        Map<String, Object> pod = podSpec(deployment("amcp-code-runner"));
        assertEquals(Boolean.FALSE, pod.get("automountServiceAccountToken"), "no API credentials in the sandbox pod");
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertNotEquals(Boolean.TRUE, pod.get(host), host);
        }
        Map<String, Object> container = onlyContainer(pod);
        Map<String, Object> sc = map(container, "securityContext");
        assertEquals(Boolean.TRUE, sc.get("readOnlyRootFilesystem"), "read-only root");
        assertEquals(Boolean.FALSE, sc.get("allowPrivilegeEscalation"), "no-new-privileges");
        assertNotEquals(Boolean.TRUE, sc.get("privileged"));
        Map<String, Object> caps = map(sc, "capabilities");
        assertEquals(List.of("ALL"), caps.get("drop"));
        assertEquals(Set.of("SETUID", "SETGID"), new TreeSet<>(list(caps, "add").stream().map(String::valueOf).toList()));
        assertEquals(2, list(caps, "add").size());
        assertEquals("RuntimeDefault", map(map(pod, "securityContext"), "seccompProfile").get("type"));

        Map<String, Object> limits = map(map(container, "resources"), "limits");
        assertNotNull(limits.get("memory"), "memory limit");
        assertNotNull(limits.get("cpu"), "cpu limit");
        assertNotNull(map(map(container, "resources"), "requests").get("cpu"), "a cpu request, which the HPA measures against");

        Map<String, Object> tmp = volume(pod, "tmp");
        Map<String, Object> emptyDir = map(tmp, "emptyDir");
        assertEquals("Memory", emptyDir.get("medium"), "tmpfs");
        assertNotNull(emptyDir.get("sizeLimit"), "bounded tmpfs");
        for (Map<String, Object> v : maps(pod.get("volumes"))) {
            assertNull(v.get("hostPath"), "no host paths");
        }
        assertEquals(8777, containerPort(container));
    }

    @Test
    void networkPolicyDeniesRunnerEgressAndAdmitsOnlyTheGateway() {
        Map<String, Object> runnerLabels = podLabels(deployment("amcp-code-runner"));
        Map<String, Object> gatewayLabels = podLabels(deployment("amcp-gateway"));
        List<Map<String, Object>> policies = ofKind("NetworkPolicy").stream()
                .filter(p -> selects(map(map(p, "spec"), "podSelector"), runnerLabels)).toList();
        assertEquals(1, policies.size(), "one NetworkPolicy selects the runner pods");
        Map<String, Object> spec = map(policies.get(0), "spec");
        assertTrue(list(spec, "policyTypes").containsAll(List.of("Ingress", "Egress")), "both directions are policed");
        Object egress = spec.get("egress");
        assertTrue(egress == null || ((List<?>) egress).isEmpty(), "no egress rule at all: " + egress);

        List<Map<String, Object>> ingress = maps(spec.get("ingress"));
        assertEquals(1, ingress.size());
        List<Map<String, Object>> from = maps(ingress.get(0).get("from"));
        assertEquals(1, from.size(), "exactly one peer");
        assertEquals(Set.of("podSelector"), from.get(0).keySet(), "same-namespace pods only: no namespaceSelector, no ipBlock");
        Map<String, Object> peer = map(from.get(0), "podSelector");
        assertTrue(selects(peer, gatewayLabels), "the peer is the gateway");
        assertFalse(selects(peer, runnerLabels), "runners cannot reach each other");
        assertFalse(asMap(peer.get("matchLabels"), "matchLabels").isEmpty(), "an empty selector would admit every pod");
        List<Map<String, Object>> ports = maps(ingress.get(0).get("ports"));
        assertEquals(1, ports.size());
        assertEquals(8777, ports.get(0).get("port"));

        List<Map<String, Object>> others = ofKind("NetworkPolicy").stream().filter(p -> !policies.contains(p)).toList();
        for (Map<String, Object> other : others) {
            assertFalse(maps(map(other, "spec").get("egress")).stream().findAny().isPresent()
                            && selects(map(map(other, "spec"), "podSelector"), runnerLabels),
                    "no other policy opens runner egress");
        }
    }

    @Test
    void hpaScalesTheRunnerDeployment() {
        List<Map<String, Object>> hpas = ofKind("HorizontalPodAutoscaler");
        assertEquals(1, hpas.size());
        Map<String, Object> hpa = hpas.get(0);
        assertEquals("autoscaling/v2", hpa.get("apiVersion"));
        Map<String, Object> spec = map(hpa, "spec");
        Map<String, Object> target = map(spec, "scaleTargetRef");
        assertEquals("Deployment", target.get("kind"));
        assertEquals("amcp-code-runner", target.get("name"));
        int min = (Integer) spec.get("minReplicas");
        int max = (Integer) spec.get("maxReplicas");
        assertTrue(min >= 1 && max > min, min + ".." + max);
        assertFalse(maps(spec.get("metrics")).isEmpty(), "scales on a metric");
    }

    @Test
    void gatewayRunsAsNonRootWithHealthProbes() {
        Map<String, Object> pod = podSpec(deployment("amcp-gateway"));
        Map<String, Object> container = onlyContainer(pod);
        int port = containerPort(container);
        Map<String, Object> readiness = map(map(container, "readinessProbe"), "httpGet");
        Map<String, Object> liveness = map(map(container, "livenessProbe"), "httpGet");
        assertEquals("/health/ready", readiness.get("path"));
        assertEquals("/health/live", liveness.get("path"));
        for (Map<String, Object> probe : List.of(readiness, liveness)) {
            Object p = probe.get("port");
            assertTrue(p.equals(port) || p.equals(portName(container)), "probe port " + p);
        }
        Map<String, Object> podSc = map(pod, "securityContext");
        Map<String, Object> sc = map(container, "securityContext");
        assertEquals(Boolean.TRUE, podSc.get("runAsNonRoot"));
        assertNotEquals(0, podSc.get("runAsUser"));
        assertEquals(Boolean.FALSE, sc.get("allowPrivilegeEscalation"));
        assertEquals(Boolean.TRUE, sc.get("readOnlyRootFilesystem"));
        assertEquals(List.of("ALL"), map(sc, "capabilities").get("drop"));
        assertNull(map(sc, "capabilities").get("add"), "the gateway needs no capability");
        assertEquals(Boolean.FALSE, pod.get("automountServiceAccountToken"));
        assertTrue((Integer) map(deployment("amcp-gateway"), "spec").get("replicas") >= 2, "several gateways on one database");
    }

    @Test
    void servicesWireGatewayRunnerAndExternalPostgres() {
        Map<String, Object> runnerService = service("amcp-code-runner");
        assertTrue(selects(map(runnerService, "spec"), "selector", podLabels(deployment("amcp-code-runner"))));
        assertTrue(selects(map(service("amcp-gateway"), "spec"), "selector", podLabels(deployment("amcp-gateway"))));
        assertEquals(8777, maps(map(runnerService, "spec").get("ports")).get(0).get("port"));

        Map<String, Object> postgres = map(service("amcp-postgres"), "spec");
        assertEquals("ExternalName", postgres.get("type"), "PostgreSQL lives outside the cluster manifests");
        assertNotNull(postgres.get("externalName"));
        assertTrue(ofKind("StatefulSet").isEmpty(), "no database pods here");

        Map<String, Object> env = env(onlyContainer(podSpec(deployment("amcp-gateway"))));
        assertEquals("jdbc:postgresql://amcp-postgres:5432/amcp", env.get("DB_URL"));
        assertEquals("ws://amcp-code-runner:8777", env.get("CODE_RUNNER_URL"));
        for (String secret : List.of("DB_PASSWORD", "CODE_RUNNER_TOKEN", "AMCP_MASTER_KEY")) {
            assertTrue(env.get(secret) instanceof Map<?, ?>, secret + " comes from a Secret, never a literal");
        }
        assertTrue(env(onlyContainer(podSpec(deployment("amcp-code-runner")))).get("CODE_RUNNER_TOKEN") instanceof Map<?, ?>);
    }

    @Test
    void imagesArePinned() {
        for (String name : List.of("amcp-gateway", "amcp-code-runner")) {
            String image = String.valueOf(onlyContainer(podSpec(deployment(name))).get("image"));
            assertNull(ImagePins.problem(image), name + ": " + ImagePins.problem(image));
        }
    }

    // --- helpers ---

    static List<Map<String, Object>> ofKind(String kind) {
        return docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
    }

    static Map<String, Object> named(String kind, String name) {
        return ofKind(kind).stream().filter(d -> name.equals(map(d, "metadata").get("name"))).findFirst()
                .orElseGet(() -> fail("no " + kind + " " + name));
    }

    static Map<String, Object> deployment(String name) {
        return named("Deployment", name);
    }

    static Map<String, Object> service(String name) {
        return named("Service", name);
    }

    static Map<String, Object> podSpec(Map<String, Object> deployment) {
        return map(map(map(deployment, "spec"), "template"), "spec");
    }

    static Map<String, Object> podLabels(Map<String, Object> deployment) {
        Map<String, Object> labels = map(map(map(map(deployment, "spec"), "template"), "metadata"), "labels");
        assertTrue(selects(map(deployment, "spec"), "selector", labels) || selects(map(map(deployment, "spec"), "selector"), labels),
                "the Deployment selects its own pods");
        return labels;
    }

    static Map<String, Object> onlyContainer(Map<String, Object> pod) {
        List<Map<String, Object>> containers = maps(pod.get("containers"));
        assertEquals(1, containers.size());
        assertNull(pod.get("initContainers"), "no init containers escape the hardening");
        return containers.get(0);
    }

    static int containerPort(Map<String, Object> container) {
        return (Integer) maps(container.get("ports")).get(0).get("containerPort");
    }

    static Object portName(Map<String, Object> container) {
        return maps(container.get("ports")).get(0).get("name");
    }

    static Map<String, Object> volume(Map<String, Object> pod, String name) {
        return maps(pod.get("volumes")).stream().filter(v -> name.equals(v.get("name"))).findFirst()
                .orElseGet(() -> fail("no volume " + name));
    }

    static Map<String, Object> env(Map<String, Object> container) {
        Map<String, Object> env = new java.util.HashMap<>();
        for (Map<String, Object> e : maps(container.get("env"))) {
            env.put(String.valueOf(e.get("name")), e.get("value") != null ? e.get("value") : e.get("valueFrom"));
        }
        return env;
    }

    /** Whether a label selector (matchLabels only; matchExpressions are not used here) selects the labels. */
    static boolean selects(Map<String, Object> selector, Map<String, Object> labels) {
        assertNull(selector.get("matchExpressions"), "only matchLabels selectors are checked");
        Map<String, Object> match = asMap(selector.get("matchLabels"), "matchLabels");
        return match.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    /** A Service's plain selector (a map of labels). */
    static boolean selects(Map<String, Object> spec, String key, Map<String, Object> labels) {
        Object selector = spec.get(key);
        if (!(selector instanceof Map<?, ?> s) || s.containsKey("matchLabels")) {
            return false;
        }
        return !s.isEmpty() && s.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(String.valueOf(e.getKey()))));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> maps(Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> l)) {
            return fail("expected a list, got " + value);
        }
        return l.stream().map(v -> (Map<String, Object>) asMap(v, "item")).toList();
    }
}
