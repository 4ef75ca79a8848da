package dev.amcp.gateway.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a container image reference is pinned to an exact version, and reads the base images of a
 * Dockerfile. Pinned means a digest ({@code @sha256:...}) or a tag that carries a dotted version number
 * ({@code 26.0.0.5-kernel-slim-java17-openj9-ubi}, {@code debian-2.9.6}, {@code 17.6}); {@code latest}, a bare
 * name and a floating major ({@code postgres:17}) are not.
 */
final class ImagePins {

    private static final Pattern DIGEST = Pattern.compile("@sha256:[0-9a-f]{64}$");
    private static final Pattern DOTTED_VERSION = Pattern.compile("(^|[^0-9.])\\d+\\.\\d+(\\.\\d+)*($|[^0-9.])");
    private static final Pattern ARG = Pattern.compile("^ARG\\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\\S*))?", Pattern.CASE_INSENSITIVE);
    private static final Pattern FROM = Pattern.compile("^FROM\\s+(?:--platform=\\S+\\s+)?(\\S+)(?:\\s+AS\\s+(\\S+))?\\s*$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)\\}?");

    private ImagePins() {}

    /** Why the image is not pinned, or null when it is. */
    static String problem(String image) {
        if (image == null || image.isBlank()) {
            return "no image";
        }
        if (image.contains("$")) {
            return "unresolved variable in '" + image + "'";
        }
        if (DIGEST.matcher(image).find()) {
            return null;
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        if (colon <= slash) {
            return "'" + image + "' has no tag (it means latest)";
        }
        String tag = image.substring(colon + 1);
        if (tag.equalsIgnoreCase("latest") || tag.toLowerCase().contains("latest")) {
            return "'" + image + "' uses a latest tag";
        }
        if (!DOTTED_VERSION.matcher(tag).find()) {
            return "'" + image + "' has tag '" + tag + "' without an exact version (major.minor at least)";
        }
        return null;
    }

    /**
     * Why the image is not pinned by digest, or null when it is: an exact version tag (as {@link #problem})
     * and a {@code @sha256:} digest ({@code denoland/deno:debian-2.9.6@sha256:...}). The tag stays for the
     * reader and for the version checks; the digest is what the build pulls.
     */
    static String digestProblem(String image) {
        if (image == null || !DIGEST.matcher(image).find()) {
            return "'" + image + "' is not pinned by digest (@sha256:...)";
        }
        String tagged = image.substring(0, image.indexOf('@'));
        return problem(tagged);
    }

    /** The external base images of a Dockerfile (FROM lines, ARG defaults applied, earlier stages skipped). */
    static List<String> baseImages(Path dockerfile) throws IOException {
        Map<String, String> args = new HashMap<>();
        Set<String> stages = new HashSet<>();
        List<String> images = new ArrayList<>();
        for (String raw : joinContinuations(Files.readAllLines(dockerfile))) {
            String line = raw.strip();
            Matcher arg = ARG.matcher(line);
            if (arg.find()) {
                args.put(arg.group(1), arg.group(2) == null ? "" : arg.group(2).replaceAll("^\"|\"$", ""));
                continue;
            }
            Matcher from = FROM.matcher(line);
            if (from.find()) {
                String image = substitute(from.group(1), args);
                if (!stages.contains(image.toLowerCase()) && !image.equalsIgnoreCase("scratch")) {
                    images.add(image);
                }
                if (from.group(2) != null) {
                    stages.add(from.group(2).toLowerCase());
                }
            }
        }
        return images;
    }

    private static String substitute(String value, Map<String, String> args) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = args.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(replacement == null || replacement.isEmpty() ? m.group() : replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static List<String> joinContinuations(List<String> lines) {
        List<String> joined = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : lines) {
            if (line.stripLeading().startsWith("#")) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
            } else {
                current.append(line);
                joined.add(current.toString());
                current.setLength(0);
            }
        }
        if (!current.isEmpty()) {
            joined.add(current.toString());
        }
        return joined;
    }
}
