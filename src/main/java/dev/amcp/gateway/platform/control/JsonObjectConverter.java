package dev.amcp.gateway.platform.control;

import jakarta.json.JsonObject;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * Stores a {@link JsonObject} in a JSON column as text. PostgreSQL receives it into {@code jsonb} because the
 * data source sets {@code stringtype=unspecified}; H2 keeps it in {@code text}. The column side is {@code Object}
 * because the PostgreSQL driver reads {@code jsonb} as a {@code PGobject}, whose text is the JSON.
 */
@Converter
public class JsonObjectConverter implements AttributeConverter<JsonObject, Object> {
    @Override
    public Object convertToDatabaseColumn(JsonObject value) {
        return value == null ? null : value.toString();
    }

    @Override
    public JsonObject convertToEntityAttribute(Object column) {
        return column == null ? null : JsonSupport.parseObject(column.toString());
    }
}
