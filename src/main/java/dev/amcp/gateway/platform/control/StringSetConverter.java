package dev.amcp.gateway.platform.control;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonString;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Stores a set of strings as a sorted JSON array in a JSON column. */
@Converter
public class StringSetConverter implements AttributeConverter<Set<String>, Object> {
    @Override
    public Object convertToDatabaseColumn(Set<String> values) {
        JsonArrayBuilder array = JsonSupport.JSON.createArrayBuilder();
        new TreeSet<>(values == null ? Set.of() : values).forEach(array::add);
        return array.build().toString();
    }

    @Override
    public Set<String> convertToEntityAttribute(Object column) {
        if (column == null) {
            return Collections.emptySet();
        }
        return JsonSupport.parseArray(column.toString()).getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).collect(Collectors.toCollection(TreeSet::new));
    }
}
