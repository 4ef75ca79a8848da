package dev.amcp.gateway.tools.entity;

import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.platform.entity.Message;
import dev.amcp.gateway.upstreams.entity.UpstreamSyntax;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an HTTP tool maps its arguments onto an upstream call, read from {@code endpoint_mapping}:
 * <pre>{@code
 * {"method": "GET", "url": "${AMCP_UPSTREAM_SHOP}/orders/{orderId}",
 *  "query": {"status": "status"}, "body": ["note"], "headers": {"Accept": "application/json"},
 *  "credential": "SHOP", "timeoutMs": 5000}
 * }</pre>
 * Optional, as an OpenAPI import writes them: {@code headerArgs} maps header names to the arguments that fill them,
 * {@code bodyNames} maps argument names to the JSON property each is sent as (where an argument was renamed),
 * {@code readOnly} overrides the read/write class the method gives, and {@code openapi} records where the tool came
 * from ({@code {"document", "operationId"}}); the invoker ignores it.
 * {@code {arg}} in the URL takes an argument (percent-encoded) in the path or query, never in the scheme or host;
 * {@code ${AMCP_UPSTREAM_X}} at the start takes an operator's base. Where the URL may lead is
 * {@code UpstreamRules}' to judge.
 * {@code query} maps query parameter names to argument names. {@code body} lists the arguments sent as a JSON body;
 * without it, writes send every argument not used in the path or query. {@code credential} names a configured
 * credential ({@code AMCP_CREDENTIAL_<NAME>_VALUE}, optional {@code AMCP_CREDENTIAL_<NAME>_HEADER}).
 * <p>
 * With {@code "upstream": "shop"} the tool calls one of its workspace's upstreams by name: {@code url} is then relative
 * to that upstream's base ({@code "/orders/{orderId}"}, {@code "?q={q}"} or empty), and the upstream's own credential,
 * if it has one, is sent; {@code credential} and settings do not go with it.
 */
public record HttpEndpointMapping(String method, String url, Map<String, String> query, List<String> body,
                                  Map<String, String> headers, String credential, Integer timeoutMs,
                                  Map<String, String> headerArgs, Map<String, String> bodyNames, String upstream) {

    /** A tool argument in the URL, {@code {name}} (a {@code ${...}} setting is not one). */
    public static final Pattern PATH_PARAM = Pattern.compile("(?<!\\$)\\{([A-Za-z_][A-Za-z0-9_]*)}");

    /** Reads and checks a mapping; throws {@link InvalidInputException} with a message fit for a form. */
    public static HttpEndpointMapping from(JsonObject mapping) {
        String method = McpTool.methodOf(mapping);
        if (!McpTool.HTTP_METHODS.contains(method)) {
            throw problem("problem.mapping.method", "method must be one of GET, POST, PUT, PATCH, DELETE (or code)");
        }
        String url = mapping.containsKey("url") && mapping.get("url").getValueType() == JsonValue.ValueType.STRING
                ? mapping.getString("url") : null;
        String upstream = upstreamOf(mapping);
        if (upstream != null) {
            return relativeTo(upstream, method, url == null ? "" : url, mapping);
        }
        if (url == null || url.isBlank()) {
            throw problem("problem.mapping.urlRequired", "url is required");
        }
        Matcher settings = UpstreamSyntax.SETTING.matcher(url);
        while (settings.find()) {
            if (!settings.group(1).startsWith(UpstreamSyntax.SETTING_PREFIX)) {
                throw problem("problem.mapping.urlSetting", "url may only reference settings named {0}*, not {1}", UpstreamSyntax.SETTING_PREFIX, settings.group(1));
            }
        }
        String withoutSettings = UpstreamSyntax.SETTING.matcher(url).replaceAll("http://setting");
        if (!withoutSettings.startsWith("http://") && !withoutSettings.startsWith("https://")) {
            throw problem("problem.mapping.urlScheme", "url must start with http:// or https:// (or a $'{'{0}...'}' setting)", UpstreamSyntax.SETTING_PREFIX);
        }
        checkHostPart(url);
        return checked(method, url, mapping, null);
    }

    private static String upstreamOf(JsonObject mapping) {
        JsonValue value = mapping.get("upstream");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString name) || !UpstreamSyntax.UPSTREAM_NAME.matcher(name.getString()).matches()) {
            throw problem("problem.mapping.upstream", "upstream names an upstream of this workspace: 1 to 64 lower-case letters, digits or ''-''");
        }
        return name.getString();
    }

    /** A mapping under a workspace upstream: a URL relative to its base, and no credential of the operator's. */
    private static HttpEndpointMapping relativeTo(String upstream, String method, String url, JsonObject mapping) {
        if (!url.isEmpty() && !url.startsWith("/") && !url.startsWith("?")) {
            throw problem("problem.mapping.upstreamUrl", "with upstream, url is a path under its base: empty, or starting with / or ?");
        }
        if (UpstreamSyntax.SETTING.matcher(url).find()) {
            throw problem("problem.mapping.upstreamSetting", "with upstream, url may not name a $'{'{0}...'}' setting", UpstreamSyntax.SETTING_PREFIX);
        }
        if (mapping.containsKey("credential") && mapping.get("credential") != JsonValue.NULL) {
            throw problem("problem.mapping.upstreamCredential", "with upstream, the upstream''s own credential is sent: leave credential out");
        }
        return checked(method, url, mapping, upstream);
    }

    private static HttpEndpointMapping checked(String method, String url, JsonObject mapping, String upstream) {
        Integer timeout = mapping.containsKey("timeoutMs") ? mapping.getInt("timeoutMs") : null;
        if (timeout != null && (timeout < 100 || timeout > 120_000)) {
            throw problem("problem.mapping.timeout", "timeoutMs must be between 100 and 120000");
        }
        Map<String, String> headers = stringMap(mapping, "headers");
        if (headers.keySet().stream().anyMatch("host"::equalsIgnoreCase)) {
            throw problem("problem.mapping.hostHeader", "headers may not set Host: the gateway sends the host of the url");
        }
        Map<String, String> headerArgs = stringMap(mapping, "headerArgs");
        headerArgs.keySet().stream().filter(UpstreamSyntax::reserved).findFirst().ifPresent(h -> {
            throw problem("problem.mapping.headerArg", "headerArgs may not set {0}: the gateway sends it", h);
        });
        if (mapping.containsKey("readOnly") && mapping.get("readOnly").getValueType() != JsonValue.ValueType.TRUE
                && mapping.get("readOnly").getValueType() != JsonValue.ValueType.FALSE) {
            throw problem("problem.mapping.readOnly", "readOnly must be true or false");
        }
        return new HttpEndpointMapping(method, url, stringMap(mapping, "query"), stringList(mapping, "body"),
                headers, upstream == null ? mapping.getString("credential", null) : null, timeout, headerArgs,
                stringMap(mapping, "bodyNames"), upstream);
    }

    /**
     * Nothing an argument fills in may decide the host: a setting stands only at the start, followed by '/', '?' or
     * nothing (so its base's host stays whole), and no {arg} stands in the scheme or host part.
     */
    private static void checkHostPart(String url) {
        Matcher setting = UpstreamSyntax.SETTING.matcher(url);
        while (setting.find()) {
            boolean followedWell = setting.end() == url.length() || "/?".indexOf(url.charAt(setting.end())) >= 0;
            if (setting.start() != 0 || !followedWell) {
                throw problem("problem.mapping.urlSettingPlace", "a $'{'{0}...'}' setting may only start the url, followed by / or ?", UpstreamSyntax.SETTING_PREFIX);
            }
        }
        String rest = UpstreamSyntax.SETTING.matcher(url).replaceAll("http://setting");
        int hostStart = rest.indexOf("://") + 3;
        int hostEnd = hostStart;
        while (hostEnd < rest.length() && "/?#".indexOf(rest.charAt(hostEnd)) < 0) {
            hostEnd++;
        }
        if (rest.substring(0, hostEnd).contains("{")) {
            throw problem("problem.mapping.urlHostParameter", "an '{'argument'}' may not stand in the scheme or host part of the url");
        }
    }

    private static InvalidInputException problem(String key, String englishPattern, Object... args) {
        return new InvalidInputException(Message.of(key, englishPattern, args));
    }

    public List<String> pathParameters() {
        List<String> names = new ArrayList<>();
        Matcher m = PATH_PARAM.matcher(url);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    public boolean sendsBody() {
        return !"GET".equals(method) && !"DELETE".equals(method);
    }

    private static Map<String, String> stringMap(JsonObject mapping, String key) {
        Map<String, String> result = new LinkedHashMap<>();
        if (mapping.containsKey(key)) {
            if (mapping.get(key).getValueType() != JsonValue.ValueType.OBJECT) {
                throw problem("problem.mapping.object", "{0} must be an object of strings", key);
            }
            mapping.getJsonObject(key).forEach((k, v) -> {
                if (v.getValueType() != JsonValue.ValueType.STRING) {
                    throw problem("problem.mapping.string", "{0}.{1} must be a string", key, k);
                }
                result.put(k, ((JsonString) v).getString());
            });
        }
        return result;
    }

    private static List<String> stringList(JsonObject mapping, String key) {
        if (!mapping.containsKey(key) || mapping.isNull(key)) {
            return null;
        }
        if (mapping.get(key).getValueType() != JsonValue.ValueType.ARRAY) {
            throw problem("problem.mapping.array", "{0} must be an array of argument names", key);
        }
        JsonArray array = mapping.getJsonArray(key);
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }
}
