/** Values every feature shares, such as {@link dev.amcp.gateway.platform.entity.Message}, a translatable message. */
package dev.amcp.gateway.platform.entity;
