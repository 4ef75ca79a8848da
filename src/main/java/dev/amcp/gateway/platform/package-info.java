/**
 * Platform: configuration, start-up, database migrations, JSON helpers and health. It imports no feature package;
 * features build on it.
 */
package dev.amcp.gateway.platform;
