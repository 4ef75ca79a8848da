package dev.amcp.gateway.demo.control;

import dev.amcp.gateway.platform.control.JsonSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo API's data: 200 customers, 500 orders and 60 products, generated from a fixed seed so every install
 * sees the same rows. Writes change memory only; a restart restores the seed. The API is unauthenticated, so what a
 * write may add is bounded: a note of at most {@value #MAX_NOTE_CHARS} characters, at most {@value #MAX_ORDERS} orders.
 */
@ApplicationScoped
public class DemoStore {

    public static final int MAX_NOTE_CHARS = 1000;
    public static final int MAX_ORDERS = 5000;
    public static final List<String> ORDER_STATUSES = List.of("open", "paid", "shipped", "cancelled");
    private static final String[] FIRST = {"Ada", "Bruno", "Chiara", "Dieter", "Elena", "Farid", "Greta", "Hugo", "Irene", "Jonas"};
    private static final String[] LAST = {"Rossi", "Müller", "Bianchi", "Schmidt", "Ricci", "Weber", "Greco", "Fischer", "Conti", "Wagner"};
    private static final String[] CITIES = {"Milano", "Berlin", "Torino", "München", "Roma", "Hamburg", "Zürich", "Wien"};
    private static final String[] PRODUCTS = {"Espresso beans", "Grinder", "Milk jug", "Tamper", "Filter papers", "Kettle"};

    public record Customer(int id, String name, String email, String city, String tier) {
        public JsonObject json() {
            return JsonSupport.JSON.createObjectBuilder().add("id", id).add("name", name).add("email", email).add("city", city)
                    .add("tier", tier).build();
        }
    }

    public record Order(int id, int customerId, String sku, int quantity, double amount, String status, String note) {
        public JsonObject json() {
            JsonObjectBuilder b = JsonSupport.JSON.createObjectBuilder().add("id", id).add("customerId", customerId).add("sku", sku)
                    .add("quantity", quantity).add("amount", amount).add("status", status);
            if (note != null) {
                b.add("note", note);
            }
            return b.build();
        }
    }

    public record Product(String sku, String name, int stock, int reorderLevel, double price) {
        public JsonObject json() {
            return JsonSupport.JSON.createObjectBuilder().add("sku", sku).add("name", name).add("stock", stock)
                    .add("reorderLevel", reorderLevel).add("price", price).build();
        }
    }

    private final Map<Integer, Customer> customers = new ConcurrentSkipListMap<>();
    private final Map<Integer, Order> orders = new ConcurrentSkipListMap<>();
    private final Map<String, Product> products = new ConcurrentSkipListMap<>();
    private final AtomicInteger nextOrderId = new AtomicInteger();

    public DemoStore() {
        Random random = new Random(42);
        for (int i = 1; i <= 60; i++) {
            String sku = String.format("SKU-%03d", i);
            String name = PRODUCTS[(i - 1) % PRODUCTS.length] + " " + (char) ('A' + (i - 1) / PRODUCTS.length);
            products.put(sku, new Product(sku, name, random.nextInt(120), 10 + random.nextInt(20), 5 + random.nextInt(20000) / 100.0));
        }
        for (int i = 1; i <= 200; i++) {
            String name = FIRST[random.nextInt(FIRST.length)] + " " + LAST[random.nextInt(LAST.length)];
            String email = name.toLowerCase().replace(' ', '.').replace("ü", "ue") + i + "@example.com";
            customers.put(i, new Customer(i, name, email, CITIES[random.nextInt(CITIES.length)],
                    random.nextInt(10) == 0 ? "gold" : "standard"));
        }
        for (int i = 1; i <= 500; i++) {
            Product p = products.get(String.format("SKU-%03d", 1 + random.nextInt(60)));
            int quantity = 1 + random.nextInt(5);
            orders.put(i, new Order(i, 1 + random.nextInt(200), p.sku(), quantity, Math.round(p.price() * quantity * 100) / 100.0,
                    ORDER_STATUSES.get(random.nextInt(ORDER_STATUSES.size())), null));
        }
        nextOrderId.set(501);
    }

    public List<Customer> customers(String query, int limit) {
        String q = query == null ? "" : query.toLowerCase();
        return customers.values().stream()
                .filter(c -> q.isEmpty() || c.name().toLowerCase().contains(q) || c.city().toLowerCase().contains(q))
                .limit(limit).toList();
    }

    /** The customers of one city, by its whole name in any case. */
    public List<Customer> customersIn(String city, int limit) {
        return customers.values().stream().filter(c -> c.city().equalsIgnoreCase(city.strip())).limit(limit).toList();
    }

    public Optional<Customer> customer(int id) {
        return Optional.ofNullable(customers.get(id));
    }

    public List<Order> orders(Integer customerId, String status, int limit) {
        return orders.values().stream()
                .filter(o -> customerId == null || o.customerId() == customerId)
                .filter(o -> status == null || o.status().equals(status))
                .limit(limit).toList();
    }

    public Optional<Order> order(int id) {
        return Optional.ofNullable(orders.get(id));
    }

    /** The store holds its most orders; nothing more is added until a restart. */
    public static class FullException extends IllegalStateException {
        FullException() {
            super("The demo store holds its maximum of " + MAX_ORDERS + " orders; restart the gateway to reset it");
        }
    }

    public synchronized Order createOrder(int customerId, String sku, int quantity, String note) {
        Product product = products.get(sku);
        if (product == null || !customers.containsKey(customerId) || quantity < 1) {
            throw new IllegalArgumentException("Unknown customer or product, or quantity below 1");
        }
        if (note != null && note.length() > MAX_NOTE_CHARS) {
            throw new IllegalArgumentException("note is longer than " + MAX_NOTE_CHARS + " characters");
        }
        if (orders.size() >= MAX_ORDERS) {
            throw new FullException();
        }
        Order order = new Order(nextOrderId.getAndIncrement(), customerId, sku, quantity,
                Math.round(product.price() * quantity * 100) / 100.0, "open", note);
        orders.put(order.id(), order);
        return order;
    }

    public Optional<Order> updateStatus(int id, String status) {
        if (!ORDER_STATUSES.contains(status)) {
            throw new IllegalArgumentException("status must be one of " + ORDER_STATUSES);
        }
        return Optional.ofNullable(orders.computeIfPresent(id, (k, o) ->
                new Order(o.id(), o.customerId(), o.sku(), o.quantity(), o.amount(), status, o.note())));
    }

    public List<Product> inventory(boolean lowStockOnly) {
        return new ArrayList<>(products.values().stream().filter(p -> !lowStockOnly || p.stock() <= p.reorderLevel()).toList());
    }

    public Optional<Product> adjustStock(String sku, int delta) {
        return Optional.ofNullable(products.computeIfPresent(sku, (k, p) -> {
            int stock = p.stock() + delta;
            if (stock < 0) {
                throw new IllegalArgumentException("Stock of " + sku + " would fall below zero (" + p.stock() + " on hand)");
            }
            return new Product(p.sku(), p.name(), stock, p.reorderLevel(), p.price());
        }));
    }
}
