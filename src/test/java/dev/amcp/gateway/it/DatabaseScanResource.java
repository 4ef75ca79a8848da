package dev.amcp.gateway.it;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Test-only: reads every row of every table of the gateway's schema with plain JDBC and reports where a text occurs
 * (body: the text), so a test can show that a secret is stored nowhere in clear. Answers {@code {"tables", "rows",
 * "found": ["table.column", ...]}}; {@code rows} proves the scan read something. Also lists the secret store's rows.
 */
@Path("/it-db-scan")
@RequestScoped
public class DatabaseScanResource {

    @Resource(lookup = "jdbc/amcp")
    DataSource dataSource;

    /** The rows of the secret store's tables, every column as text, to compare before and after a rotation. */
    @jakarta.ws.rs.GET
    @Path("{table: data_keys|upstream_credentials}")
    @Produces(MediaType.APPLICATION_JSON)
    public String rows(@jakarta.ws.rs.PathParam("table") String table) throws SQLException {
        var rows = Json.createArrayBuilder();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select * from " + table + " order by 1")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                var row = Json.createObjectBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getMetaData().getColumnName(i).toLowerCase(java.util.Locale.ROOT), String.valueOf(rs.getObject(i)));
                }
                rows.add(row);
            }
        }
        return Json.createObjectBuilder().add("rows", rows).build().toString();
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public String scan(String needle) throws SQLException {
        List<String> tables = new ArrayList<>();
        List<String> found = new ArrayList<>();
        long rows = 0;
        try (Connection c = dataSource.getConnection()) {
            String schema = c.getSchema();
            try (ResultSet rs = c.getMetaData().getTables(null, schema, "%", new String[] {"TABLE", "BASE TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select * from " + table)) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        rows++;
                        for (int i = 1; i <= columns; i++) {
                            Object value = rs.getObject(i);
                            String text = value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                                    : String.valueOf(value);
                            String where = table + "." + rs.getMetaData().getColumnName(i);
                            if (text.contains(needle) && !found.contains(where)) {
                                found.add(where);
                            }
                        }
                    }
                }
            }
        }
        var list = Json.createArrayBuilder();
        found.forEach(list::add);
        return Json.createObjectBuilder().add("tables", tables.size()).add("rows", rows).add("found", list).build().toString();
    }
}
