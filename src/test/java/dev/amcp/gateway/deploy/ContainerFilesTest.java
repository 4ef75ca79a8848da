package dev.amcp.gateway.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Static checks of the container files, since no Docker engine runs here: the compose file's hardening of the
 * code runner (read-only, capabilities, no-new-privileges, tmpfs, memory and pids limits, internal network only,
 * behind the code-runner profile), code mode off by default, and exact base-image pins in every Dockerfile.
 */
class ContainerFilesTest {

    static Map<String, Object> compose;
    static Map<String, Object> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws Exception {
        try (Reader reader = Files.newBufferedReader(Path.of("docker-compose.yml"))) {
            compose = (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
        }
        services = map(compose, "services");
    }

    @Test
    void runnerIsOnlyStartedByTheCodeRunnerProfile() {
        Map<String, Object> runner = runner();
        assertEquals(List.of("code-runner"), runner.get("profiles"));
        assertEquals("./runner-image", String.valueOf(map(runner, "build").get("context")).replaceAll("/$", ""));
        for (var e : services.entrySet()) {
            if (!e.getKey().equals("code-runner")) {
                Map<String, Object> service = asMap(e.getValue(), e.getKey());
                assertNull(service.get("profiles"), e.getKey() + " must start without a profile");
                assertFalse(dependsOn(service).contains("code-runner"),
                        e.getKey() + " must not depend on the runner, or `docker compose up` without the profile fails");
            }
        }
    }

    @Test
    void runnerIsReadOnlyWithOnlySetuidAndSetgid() {
        Map<String, Object> runner = runner();
        assertEquals(Boolean.TRUE, runner.get("read_only"), "read_only: true");
        assertEquals(List.of("ALL"), upper(list(runner, "cap_drop")), "cap_drop: [ALL]");
        assertEquals(Set.of("SETUID", "SETGID"), new TreeSet<>(upper(list(runner, "cap_add"))), "cap_add: only SETUID and SETGID");
        assertEquals(2, list(runner, "cap_add").size());
        assertTrue(list(runner, "security_opt").stream().map(String::valueOf)
                        .anyMatch(o -> o.equals("no-new-privileges") || o.equals("no-new-privileges:true")),
                "security_opt: no-new-privileges");
        assertFalse(Boolean.TRUE.equals(runner.get("privileged")), "never privileged");
        for (String forbidden : List.of("pid", "ipc", "network_mode", "devices", "volumes", "ports", "extra_hosts")) {
            assertNull(runner.get(forbidden), "the runner must not set " + forbidden);
        }
    }

    @Test
    void runnerHasATmpfsAndMemoryAndPidsLimits() {
        Map<String, Object> runner = runner();
        Object tmpfs = runner.get("tmpfs");
        assertNotNull(tmpfs, "tmpfs for the read-only container");
        List<String> mounts = tmpfs instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(String.valueOf(tmpfs));
        assertTrue(mounts.stream().anyMatch(m -> m.startsWith("/tmp")), "a tmpfs on /tmp: " + mounts);
        assertTrue(mounts.stream().allMatch(m -> m.contains("size=")), "every tmpfs is size-limited: " + mounts);

        long memory = bytes(runner.get("mem_limit") != null ? runner.get("mem_limit") : deployLimit(runner, "memory"));
        assertTrue(memory >= 256L << 20 && memory <= 64L << 30, "memory limit set: " + memory);
        Object pids = runner.get("pids_limit") != null ? runner.get("pids_limit") : deployLimit(runner, "pids");
        assertNotNull(pids, "pids limit");
        int pidsLimit = Integer.parseInt(String.valueOf(pids));
        assertTrue(pidsLimit > 0 && pidsLimit <= 4096, "pids limit bounded: " + pidsLimit);
    }

    @Test
    void runnerIsOnAnInternalNetworkSharedWithTheGatewayOnly() {
        Map<String, Object> runner = runner();
        List<String> runnerNetworks = networks(runner);
        assertFalse(runnerNetworks.isEmpty(), "the runner names its networks (never the default network)");
        Map<String, Object> declared = map(compose, "networks");
        for (String name : runnerNetworks) {
            Map<String, Object> network = asMap(declared.get(name), "network " + name);
            assertEquals(Boolean.TRUE, network.get("internal"), "network " + name + " must be internal (no egress)");
            for (var e : services.entrySet()) {
                if (!e.getKey().equals("code-runner") && !e.getKey().equals("gateway")) {
                    assertFalse(networks(asMap(e.getValue(), e.getKey())).contains(name), e.getKey() + " must not share " + name);
                }
            }
        }
        assertTrue(networks(map(services, "gateway")).containsAll(runnerNetworks), "the gateway reaches the runner");
    }

    @Test
    void codeModeIsOffUnlessTheOperatorSetsTheRunnerUrl() {
        Map<String, Object> env = map(map(services, "gateway"), "environment");
        assertEquals("${CODE_RUNNER_URL:-}", env.get("CODE_RUNNER_URL"), "empty by default: code mode off");
        assertEquals("${CODE_RUNNER_TOKEN:-}", env.get("CODE_RUNNER_TOKEN"));
        assertEquals("${CODE_RUNNER_TOKEN:-}", map(runner(), "environment").get("CODE_RUNNER_TOKEN"), "one token for both sides");
        String header = headerComments(Path.of("docker-compose.yml"));
        assertTrue(header.contains("COMPOSE_PROFILES=code-runner CODE_RUNNER_URL=ws://code-runner:8777"),
                "the file says how to turn code mode on");
        assertTrue(String.valueOf(list(runner(), "expose")).contains("8777"), "runner listens on 8777");
    }

    @Test
    void gatewayUsesPostgresOnAnInternalNetwork() {
        Map<String, Object> gateway = map(services, "gateway");
        assertTrue(String.valueOf(map(gateway, "environment").get("DB_URL")).startsWith("jdbc:postgresql://postgres:5432/"));
        assertTrue(dependsOn(gateway).contains("postgres"));
        for (String name : networks(map(services, "postgres"))) {
            assertEquals(Boolean.TRUE, asMap(map(compose, "networks").get(name), name).get("internal"), "database network internal");
        }
        assertNull(map(services, "postgres").get("ports"), "PostgreSQL is not published");
    }

    @Test
    void composeImagesArePinned() {
        for (var e : services.entrySet()) {
            Object image = asMap(e.getValue(), e.getKey()).get("image");
            assertNotNull(image, e.getKey() + " names its image");
            assertNull(ImagePins.problem(String.valueOf(image)), e.getKey() + ": " + ImagePins.problem(String.valueOf(image)));
        }
    }

    @Test
    void everyDockerfilePinsItsBaseImages() throws Exception {
        List<Path> dockerfiles = new ArrayList<>(List.of(Path.of("Dockerfile")));
        Path runnerDockerfile = Path.of("runner-image", "Dockerfile");
        if (Files.exists(runnerDockerfile)) {
            dockerfiles.add(runnerDockerfile);
        }
        for (Path dockerfile : dockerfiles) {
            List<String> images = ImagePins.baseImages(dockerfile);
            assertFalse(images.isEmpty(), dockerfile + " has a base image");
            for (String image : images) {
                assertNull(ImagePins.problem(image), dockerfile + ": " + ImagePins.problem(image));
            }
        }
        List<String> gateway = ImagePins.baseImages(Path.of("Dockerfile"));
        String liberty = gateway.get(gateway.size() - 1);
        assertTrue(liberty.startsWith("icr.io/appcafe/open-liberty:"), "official Open Liberty image: " + liberty);
        String libertyVersion = pomProperty("version.liberty.runtime");
        assertTrue(liberty.contains(":" + libertyVersion + "-"), "the image runs the Liberty version the build tests: " + libertyVersion);
    }

    @Test
    void runnerImageIsPinnedByDigestToTheDenoTheRunnerTests() throws Exception {
        List<String> images = ImagePins.baseImages(Path.of("runner-image", "Dockerfile"));
        assertEquals(1, images.size(), "one base image: " + images);
        String deno = images.get(0);
        assertNull(ImagePins.digestProblem(deno), ImagePins.digestProblem(deno));
        String denoVersion = Files.readAllLines(Path.of("runner-image", "lib", "deps.sh")).stream()
                .filter(l -> l.startsWith("DENO_VERSION=")).findFirst().orElseThrow().replaceAll("^DENO_VERSION=\"|\"$", "");
        assertTrue(deno.startsWith("denoland/deno:debian-" + denoVersion + "@"), "the Deno that lib/deps.sh installs for the tests: " + deno);
    }

    @Test
    void gatewayImageShipsTheDriversOutsideTheWar() throws Exception {
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("/config/lib/global/jdbc/"), "drivers where server.xml's library looks");
        assertTrue(Files.readString(Path.of("src/main/liberty/config/server.xml")).contains("${server.config.dir}/lib/global/jdbc"));
        assertTrue(dockerfile.contains("src/main/liberty/config/server.xml /config/server.xml"), "the production server.xml");
        assertTrue(dockerfile.contains("src/main/liberty/config/jvm.options /config/jvm.options"), "the gateway's JVM options");
        assertTrue(Files.readString(Path.of("src/main/liberty/config/jvm.options")).contains("-Djdk.httpclient.allowRestrictedHeaders=host"),
                "pinned upstream calls send Host");
        assertTrue(dockerfile.contains("amcp-gateway.war /config/dropins/"), "the WAR");
    }

    // --- helpers ---

    static Map<String, Object> runner() {
        return map(services, "code-runner");
    }

    static String pomProperty(String name) throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        int start = pom.indexOf("<" + name + ">");
        assertTrue(start >= 0, name + " in pom.xml");
        return pom.substring(start + name.length() + 2, pom.indexOf("</" + name + ">", start)).trim();
    }

    static String headerComments(Path file) {
        try {
            StringBuilder header = new StringBuilder();
            for (String line : Files.readAllLines(file)) {
                if (!line.startsWith("#")) {
                    break;
                }
                header.append(line).append('\n');
            }
            return header.toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Object deployLimit(Map<String, Object> service, String key) {
        Object deploy = service.get("deploy");
        if (!(deploy instanceof Map<?, ?>)) {
            return null;
        }
        Map<String, Object> resources = asMap(((Map<?, ?>) deploy).get("resources"), "deploy.resources");
        return asMap(resources.get("limits"), "deploy.resources.limits").get(key);
    }

    static long bytes(Object value) {
        assertNotNull(value, "memory limit");
        String v = String.valueOf(value).trim().toLowerCase().replaceAll("b$", "");
        long factor = switch (v.charAt(v.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        String number = factor == 1 ? v : v.substring(0, v.length() - 1);
        return (long) (Double.parseDouble(number) * factor);
    }

    static List<String> networks(Map<String, Object> service) {
        Object networks = service.get("networks");
        if (networks == null) {
            return List.of();
        }
        if (networks instanceof Map<?, ?> m) {
            return m.keySet().stream().map(String::valueOf).toList();
        }
        return ((Collection<?>) networks).stream().map(String::valueOf).toList();
    }

    static List<String> dependsOn(Map<String, Object> service) {
        Object deps = service.get("depends_on");
        if (deps == null) {
            return List.of();
        }
        if (deps instanceof Map<?, ?> m) {
            return m.keySet().stream().map(String::valueOf).toList();
        }
        return ((Collection<?>) deps).stream().map(String::valueOf).toList();
    }

    static List<String> upper(List<Object> values) {
        return values.stream().map(v -> String.valueOf(v).toUpperCase().replaceFirst("^CAP_", "")).toList();
    }

    static List<Object> list(Map<String, Object> map, String key) {
        Object value = map.get(key);
        if (!(value instanceof List<?>)) {
            fail(key + " must be a list, is " + value);
        }
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) value;
        return list;
    }

    static Map<String, Object> map(Map<String, Object> map, String key) {
        return asMap(map.get(key), key);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value, String what) {
        if (!(value instanceof Map<?, ?>)) {
            fail(what + " must be a mapping, is " + value);
        }
        return (Map<String, Object>) value;
    }
}
