package dev.faro.join.radix;

import dev.faro.join.JoinResult;
import dev.faro.join.workload.JoinWorkload;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The obvious join (a HashMap over every node's R, probed with every node's S): what every variant must equal. */
public final class ReferenceJoin {

    private ReferenceJoin() {}

    public static JoinResult of(JoinWorkload workload, int nodes) {
        Map<Long, List<Long>> inner = new HashMap<>();
        long matches = 0;
        long checksum = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (int node = 0; node < nodes; node++) {
                MemorySegment r = workload.inner(arena, node, nodes);
                for (long i = 0; i < workload.innerPerNode(); i++) {
                    inner.computeIfAbsent(Tuples.key(r, i), k -> new ArrayList<>())
                            .add(Tuples.rid(r, i));
                }
            }
            for (int node = 0; node < nodes; node++) {
                MemorySegment s = workload.outer(arena, node, nodes);
                for (long i = 0; i < workload.outerPerNode(); i++) {
                    List<Long> rids = inner.get(Tuples.key(s, i));
                    if (rids != null) {
                        for (long rid : rids) {
                            matches++;
                            checksum += Tuples.pairHash(rid, Tuples.rid(s, i));
                        }
                    }
                }
            }
        }
        return new JoinResult(matches, checksum);
    }
}
