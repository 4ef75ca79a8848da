package dev.amcp.gateway.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pin rule itself: it must reject what it is meant to reject, or the file checks prove nothing. */
class ImagePinsTest {

    @Test
    void acceptsExactVersionsAndDigests() {
        assertNull(ImagePins.problem("icr.io/appcafe/open-liberty:26.0.0.5-kernel-slim-java17-openj9-ubi"));
        assertNull(ImagePins.problem("denoland/deno:debian-2.9.6"));
        assertNull(ImagePins.problem("postgres:17.6"));
        assertNull(ImagePins.problem("maven:3.9.9-eclipse-temurin-17"));
        assertNull(ImagePins.problem("registry:5000/team/app@sha256:" + "a".repeat(64)));
    }

    @Test
    void rejectsLatestUntaggedAndFloatingTags() {
        assertNotNull(ImagePins.problem("postgres"));
        assertNotNull(ImagePins.problem("postgres:latest"));
        assertNotNull(ImagePins.problem("registry:5000/team/app"), "a registry port is not a tag");
        assertNotNull(ImagePins.problem("postgres:17"));
        assertNotNull(ImagePins.problem("icr.io/appcafe/open-liberty:kernel-slim-java17-openj9-ubi"));
        assertNotNull(ImagePins.problem("denoland/deno:debian"));
        assertNotNull(ImagePins.problem("${BASE}"));
    }

    @Test
    void aDigestPinNeedsTheDigestAndAnExactTag() {
        String digest = "@sha256:" + "0".repeat(64);
        assertNull(ImagePins.digestProblem("denoland/deno:debian-2.9.6" + digest));
        assertNotNull(ImagePins.digestProblem("denoland/deno:debian-2.9.6"), "a tag alone is not a digest pin");
        assertNotNull(ImagePins.digestProblem("denoland/deno" + digest), "the tag names the version for the reader");
        assertNotNull(ImagePins.digestProblem("denoland/deno:latest" + digest));
        assertNotNull(ImagePins.digestProblem("denoland/deno:debian-2.9.6@sha256:abc"), "a short digest");
    }

    @Test
    void readsBaseImagesSkippingStagesAndApplyingArgs(@TempDir Path dir) throws Exception {
        Path dockerfile = dir.resolve("Dockerfile");
        Files.writeString(dockerfile, String.join("\n",
                "ARG BASE=eclipse-temurin:17.0.15_6-jre",
                "FROM --platform=linux/amd64 maven:3.9.9-eclipse-temurin-17 AS build",
                "# FROM commented:out",
                "RUN echo \\",
                "  FROM not-an-instruction",
                "FROM build AS test",
                "FROM ${BASE}",
                "FROM scratch",
                ""));
        assertEquals(List.of("maven:3.9.9-eclipse-temurin-17", "eclipse-temurin:17.0.15_6-jre"), ImagePins.baseImages(dockerfile));
    }
}
