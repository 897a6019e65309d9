package dev.faro.zerosided.exchange;

import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.TransmissionGroups;

/**
 * Which switch flow serves an exchange, from its transmission groups: every group one node (a repartition, or a
 * gather to node 0) is a key-based shuffle, the group index being the key; a single group of several nodes (a
 * broadcast) is a globally ordered replication. Anything else (several groups of which one has several members) the
 * switch cannot serve with one flow per exchange, and is refused by name.
 */
enum ExchangeShape {
    /** Producer buffer (node, thread, group) to the consumer buffer of the group's node. */
    SHUFFLE,
    /** Every producer buffer to the consumer buffer of every member node, all in one order. */
    REPLICATION;

    /**
     * The shape of {@code groups}.
     *
     * @throws FaroException {@code INVALID_ARGUMENT}, naming the exchange kind the switch cannot serve
     */
    static ExchangeShape of(TransmissionGroups groups) {
        if (groups.groupCount() == 1 && groups.members(0).length > 1) {
            return REPLICATION;
        }
        boolean[] seen = new boolean[groups.nodes()];
        for (int group = 0; group < groups.groupCount(); group++) {
            int[] members = groups.members(group);
            if (members.length != 1 || seen[members[0]]) {
                throw new FaroException(
                        FaroException.Category.INVALID_ARGUMENT,
                        ZeroSidedTransport.NAME
                                + " cannot serve a multicast exchange with several groups of several nodes (" + groups
                                + "): it serves repartition and gather (one node per group, a key-based shuffle flow) and"
                                + " broadcast (one group, a replication flow)");
            }
            seen[members[0]] = true;
        }
        return SHUFFLE;
    }
}
