/**
 * The bundled demo: a small deterministic HTTP API (customers, orders, inventory) served by the gateway itself
 * under {@code /demo-api}, and the seeding of a demo workspace whose tools call it. Both exist only with
 * {@code AMCP_DEMO=true}: otherwise {@code /demo-api} answers 404. The workspace is seeded only into an empty database.
 */
package dev.amcp.gateway.demo;
