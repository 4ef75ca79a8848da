/**
 * The bundled demo: a small deterministic HTTP API (customers, orders, inventory) served by the gateway itself
 * under {@code /demo-api}, and the seeding of a demo workspace whose tools call it. Seeded only when
 * {@code AMCP_DEMO=true} and the database is empty.
 */
package dev.amcp.gateway.demo;
