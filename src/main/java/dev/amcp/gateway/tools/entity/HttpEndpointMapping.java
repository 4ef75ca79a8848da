package dev.amcp.gateway.tools.entity;

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
 * {@code {arg}} in the URL takes an argument (percent-encoded); {@code ${AMCP_UPSTREAM_X}} takes a setting.
 * {@code query} maps query parameter names to argument names. {@code body} lists the arguments sent as a JSON body;
 * without it, writes send every argument not used in the path or query. {@code credential} names a configured
 * credential ({@code AMCP_CREDENTIAL_<NAME>_VALUE}, optional {@code AMCP_CREDENTIAL_<NAME>_HEADER}).
 */
public record HttpEndpointMapping(String method, String url, Map<String, String> query, List<String> body,
                                  Map<String, String> headers, String credential, Integer timeoutMs) {

    /** Settings a URL may reference; nothing else of the configuration can leak into an upstream call. */
    public static final String SETTING_PREFIX = "AMCP_UPSTREAM_";
    public static final Pattern PATH_PARAM = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");
    public static final Pattern SETTING = Pattern.compile("\\$\\{([A-Z0-9_]+)}");

    /** Reads and checks a mapping; throws {@link IllegalArgumentException} with a message fit for a form. */
    public static HttpEndpointMapping from(JsonObject mapping) {
        String method = McpTool.methodOf(mapping);
        if (!McpTool.HTTP_METHODS.contains(method)) {
            throw new IllegalArgumentException("method must be one of GET, POST, PUT, PATCH, DELETE (or code)");
        }
        String url = mapping.containsKey("url") && mapping.get("url").getValueType() == JsonValue.ValueType.STRING
                ? mapping.getString("url") : null;
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("url is required");
        }
        Matcher settings = SETTING.matcher(url);
        while (settings.find()) {
            if (!settings.group(1).startsWith(SETTING_PREFIX)) {
                throw new IllegalArgumentException("url may only reference settings named " + SETTING_PREFIX + "*, not " + settings.group(1));
            }
        }
        String withoutSettings = SETTING.matcher(url).replaceAll("http://setting");
        if (!withoutSettings.startsWith("http://") && !withoutSettings.startsWith("https://")) {
            throw new IllegalArgumentException("url must start with http:// or https:// (or a ${" + SETTING_PREFIX + "...} setting)");
        }
        Integer timeout = mapping.containsKey("timeoutMs") ? mapping.getInt("timeoutMs") : null;
        if (timeout != null && (timeout < 100 || timeout > 120_000)) {
            throw new IllegalArgumentException("timeoutMs must be between 100 and 120000");
        }
        return new HttpEndpointMapping(method, url, stringMap(mapping, "query"), stringList(mapping, "body"),
                stringMap(mapping, "headers"), mapping.getString("credential", null), timeout);
    }

    public List<String> pathParameters() {
        List<String> names = new ArrayList<>();
        Matcher m = PATH_PARAM.matcher(SETTING.matcher(url).replaceAll("")); // ${AMCP_UPSTREAM_X} is no path parameter
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
                throw new IllegalArgumentException(key + " must be an object of strings");
            }
            mapping.getJsonObject(key).forEach((k, v) -> {
                if (v.getValueType() != JsonValue.ValueType.STRING) {
                    throw new IllegalArgumentException(key + "." + k + " must be a string");
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
            throw new IllegalArgumentException(key + " must be an array of argument names");
        }
        JsonArray array = mapping.getJsonArray(key);
        return array.getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }
}
