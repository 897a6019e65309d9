package dev.faro.shuffle.endpoint;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * The transmission groups 𝔾 of TODS19 §4.1: group {@code g} is a set of destination nodes, and a buffer sent to
 * group {@code g} goes to every member. Repartition is all singletons; broadcast one group of every node; multicast
 * anything in between. Immutable; {@link #members(int)} returns a shared array that callers must not modify (so
 * the data path allocates nothing).
 */
public final class TransmissionGroups {

    private final int nodes;
    private final int[][] groups;

    private TransmissionGroups(int nodes, int[][] groups) {
        this.nodes = nodes;
        this.groups = groups;
    }

    /** One singleton group per node: tuples hashed to {@code g} go to node {@code g}. */
    public static TransmissionGroups repartition(int nodes) {
        checkNodes(nodes);
        return new TransmissionGroups(
                nodes, IntStream.range(0, nodes).mapToObj(n -> new int[] {n}).toArray(int[][]::new));
    }

    /** One group holding every node (the sender included, which keeps its own share locally by the same path). */
    public static TransmissionGroups broadcast(int nodes) {
        checkNodes(nodes);
        return new TransmissionGroups(
                nodes, new int[][] {IntStream.range(0, nodes).toArray()});
    }

    /** Explicit groups, e.g. {@code [[0, 1], [2]]}; every member must be a valid node and groups non-empty. */
    public static TransmissionGroups of(int nodes, List<int[]> groups) {
        checkNodes(nodes);
        Objects.requireNonNull(groups, "groups is null");
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("at least one transmission group is needed");
        }
        int[][] copy = new int[groups.size()][];
        for (int g = 0; g < copy.length; g++) {
            int[] members = IntStream.of(groups.get(g)).distinct().sorted().toArray();
            if (members.length == 0 || members[0] < 0 || members[members.length - 1] >= nodes) {
                throw new IllegalArgumentException(
                        "group " + g + " must name nodes in [0, " + nodes + "): " + Arrays.toString(groups.get(g)));
            }
            copy[g] = members;
        }
        return new TransmissionGroups(nodes, copy);
    }

    private static void checkNodes(int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be positive: nodes=" + nodes);
        }
    }

    public int nodes() {
        return nodes;
    }

    public int groupCount() {
        return groups.length;
    }

    /** The members of group {@code g}; a shared array, do not modify. */
    public int[] members(int group) {
        return groups[group];
    }

    /** Whether node {@code node} is a member of any group, i.e. receives anything at all. */
    public boolean receives(int node) {
        for (int[] group : groups) {
            for (int member : group) {
                if (member == node) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "TransmissionGroups" + Arrays.deepToString(groups);
    }
}
