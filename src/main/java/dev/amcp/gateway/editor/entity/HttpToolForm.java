package dev.amcp.gateway.editor.entity;

/**
 * The HTTP tool form exactly as the person typed it, so a page with errors shows their input again. The parameter
 * mapping is edited as text: query lines {@code param=argument}, header lines {@code Name: value}, and the body
 * arguments as a comma-separated list.
 */
public class HttpToolForm {

    private Long id;
    private String server = "";
    private String name = "";
    private String title = "";
    private String description = "";
    private String method = "GET";
    private String url = "";
    private String query = "";
    private String body = "";
    private String headers = "";
    private String credential = "";
    private String upstream = "";
    private String timeoutMs = "";
    private String inputSchema = "{\n  \"type\": \"object\",\n  \"properties\": {}\n}";
    private String outputSchema = "";

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public String getServer() { return server; }
    public void setServer(String server) { this.server = server; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getTitle() { return title; }
    public void setTitle(String title) { this.title = title; }
    public String getDescription() { return description; }
    public void setDescription(String description) { this.description = description; }
    public String getMethod() { return method; }
    public void setMethod(String method) { this.method = method; }
    public String getUrl() { return url; }
    public void setUrl(String url) { this.url = url; }
    public String getQuery() { return query; }
    public void setQuery(String query) { this.query = query; }
    public String getBody() { return body; }
    public void setBody(String body) { this.body = body; }
    public String getHeaders() { return headers; }
    public void setHeaders(String headers) { this.headers = headers; }
    public String getUpstream() { return upstream; }
    public void setUpstream(String upstream) { this.upstream = upstream; }
    public String getCredential() { return credential; }
    public void setCredential(String credential) { this.credential = credential; }
    public String getTimeoutMs() { return timeoutMs; }
    public void setTimeoutMs(String timeoutMs) { this.timeoutMs = timeoutMs; }
    public String getInputSchema() { return inputSchema; }
    public void setInputSchema(String inputSchema) { this.inputSchema = inputSchema; }
    public String getOutputSchema() { return outputSchema; }
    public void setOutputSchema(String outputSchema) { this.outputSchema = outputSchema; }
}
