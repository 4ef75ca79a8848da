package dev.amcp.gateway.editor.boundary;

import dev.amcp.gateway.governance.control.GateRefusedException;
import dev.amcp.gateway.governance.entity.Caller;
import dev.amcp.gateway.platform.entity.InvalidInputException;
import dev.amcp.gateway.sources.control.OpenApiImports;
import dev.amcp.gateway.sources.entity.OpenApiImportRequest;
import dev.amcp.gateway.sources.entity.OpenApiSelection;
import dev.amcp.gateway.tools.control.ToolService;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI import wizard: 1. the source (a URL through the upstream rules, an uploaded or pasted document) and the
 * server; 2. the proposed tools with their status against the server's tools (added, changed with the changes,
 * unchanged, unsupported), read/write per tool, and the tools the document no longer has; 3. what was created,
 * updated, skipped and removed. Everything goes through {@link OpenApiImports}, as over REST.
 */
@WebServlet({"/admin/imports", "/admin/imports/*"})
public class ImportsServlet extends EditorServlet {

    @Inject
    OpenApiImports imports;

    private final EditorRoutes<Long> routes = EditorRoutes.numbered((Caller caller, Long id) -> id)
            .get("", this::blank)
            .post("", this::preview)
            .postItem("apply", this::apply);

    @Override
    protected EditorRoutes<?> routes() {
        return routes;
    }

    private void blank(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        showForm(request, response, caller, Map.of("prefix", "", "url", "", "document", "", "base", "", "credential", "", "server", ""), null);
    }

    private void preview(HttpServletRequest request, HttpServletResponse response, Caller caller) throws ServletException, IOException {
        Map<String, String> form = new LinkedHashMap<>();
        for (String field : List.of("server", "url", "document", "base", "credential", "prefix")) {
            String value = request.getParameter(field);
            form.put(field, value == null ? "" : value.strip());
        }
        try {
            JsonObject preview = imports.preview(caller, new OpenApiImportRequest(blankToNull(form.get("server")),
                    blankToNull(form.get("url")), blankToNull(form.get("document")), blankToNull(form.get("base")),
                    blankToNull(form.get("credential")), blankToNull(form.get("prefix"))));
            request.setAttribute("preview", preview);
            request.setAttribute("operations", rows(preview));
            request.setAttribute("removed", preview.getJsonArray("removed").getValuesAs(JsonObject.class).stream()
                    .map(r -> r.getString("name")).toList());
            request.setAttribute("active", "imports");
            render(request, response, "import-preview");
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            showForm(request, response, caller, form, msg(request, "error.forbidden"));
        } catch (InvalidInputException e) {
            response.setStatus(422);
            showForm(request, response, caller, form, msg(request, e.problem()));
        } catch (IllegalArgumentException e) {
            response.setStatus(422);
            showForm(request, response, caller, form, e.getMessage());
        }
    }

    private void apply(HttpServletRequest request, HttpServletResponse response, Caller caller, Long id) throws ServletException, IOException {
        Set<String> readOnly = Set.copyOf(values(request, "ro"));
        List<OpenApiSelection> selections = new ArrayList<>();
        for (String operationId : values(request, "op")) {
            selections.add(new OpenApiSelection(operationId, readOnly.contains(operationId)));
        }
        try {
            if (selections.isEmpty() && values(request, "remove").isEmpty()) {
                throw new IllegalArgumentException(msg(request, "imports.nothingChosen"));
            }
            OpenApiImports.Applied applied = imports.apply(caller, id, selections, values(request, "remove"));
            request.setAttribute("applied", Map.of("created", applied.created(), "updated", applied.updated(),
                    "removed", applied.removed(), "skipped", applied.skipped()));
            request.setAttribute("active", "imports");
            render(request, response, "import-result");
        } catch (GateRefusedException e) {
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            EditorRequests.renderError(request, response, HttpServletResponse.SC_FORBIDDEN, msg(request, "error.forbidden"));
        } catch (ToolService.InvalidToolException e) {
            response.setStatus(422);
            request.setAttribute("problems", msg(request, e.problems()));
            request.setAttribute("active", "imports");
            render(request, response, "import-result");
        } catch (IllegalArgumentException e) {
            EditorRequests.renderError(request, response, 422, e instanceof InvalidInputException i ? msg(request, i.problem()) : e.getMessage());
        }
    }

    private void showForm(HttpServletRequest request, HttpServletResponse response, Caller caller, Map<String, String> form,
                          String formError) throws ServletException, IOException {
        request.setAttribute("form", form);
        request.setAttribute("formError", formError);
        request.setAttribute("servers", workspaces.servers(caller.workspaceId()));
        request.setAttribute("maxBytes", imports.maxBytes());
        request.setAttribute("active", "imports");
        render(request, response, "import-form");
    }

    /** The preview's operations as maps for the page (EL reads maps as it reads beans). */
    private static List<Map<String, Object>> rows(JsonObject preview) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (JsonObject op : preview.getJsonArray("operations").getValuesAs(JsonObject.class)) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("operationId", op.getString("operationId"));
            row.put("name", op.getString("name"));
            row.put("method", op.getString("method"));
            row.put("path", op.getString("path"));
            row.put("readOnly", op.getBoolean("readOnly"));
            row.put("description", op.isNull("description") ? "" : op.getString("description"));
            row.put("status", op.getString("status"));
            row.put("unsupported", op.containsKey("unsupported") ? op.getString("unsupported") : null);
            row.put("notes", strings(op, "notes"));
            row.put("changes", strings(op, "changes"));
            row.put("arguments", String.join(", ", op.getJsonObject("inputSchema").getJsonObject("properties").keySet()));
            row.put("outputSchema", op.get("outputSchema") != null && op.get("outputSchema").getValueType() == JsonValue.ValueType.OBJECT);
            row.put("checked", !op.containsKey("unsupported") && !"unchanged".equals(op.getString("status")));
            rows.add(row);
        }
        return rows;
    }

    private static List<String> strings(JsonObject op, String key) {
        return op.getJsonArray(key).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    private static List<String> values(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        return values == null ? List.of() : Arrays.stream(values).filter(v -> !v.isBlank()).toList();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
