package dev.amcp.gateway.platform.entity;

/**
 * A change another node of the cluster committed, as a CDI event on this node: {@code kind} says what
 * ({@link #ACCESS}: who may do what with which tools; {@link #TOOLS}: a workspace's tool list), {@code workspaceId}
 * where (null: anywhere).
 */
public record ClusterEvent(String kind, Long workspaceId) {

    public static final String ACCESS = "access";
    public static final String TOOLS = "tools";
}
