package dev.faro.fabric.shm;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricProvider;
import dev.faro.fabric.FaroException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code shm} provider: fabric nodes that are OS processes on one host (or several nodes in one JVM), talking
 * through files in a shared-memory directory that every node maps.
 *
 * <p>Options: {@code shm.directory} — where node directories live (default {@code /dev/shm}; every node of one
 * cluster must use the same directory); {@link #POPULATE_IMPORTED_OPTION}; {@link #PORT_BANDWIDTH_OPTION} and
 * {@link #INPUT_BUFFER_OPTION}, the switch-contention model (off by default).
 */
public final class ShmFabricProvider implements FabricProvider {

    public static final String NAME = "shm";
    public static final String DIRECTORY_OPTION = "shm.directory";

    /**
     * {@code true}: a peer's region is mapped when its key is imported, with this process's page tables filled
     * ({@link PageTables}), so that no WRITE into it takes a page fault. Pays off for large regions written many times
     * (the ETH19 join's windows); it costs every short-lived region its population up front (the shuffle designs' per
     * exchange regions: MEMQ/SR's TPC-H total was 14 % slower with it), so the default is {@code false}: map on first
     * use.
     */
    public static final String POPULATE_IMPORTED_OPTION = "shm.populate-imported";

    /**
     * Turns on the switch-contention model ({@link PortContention}) at this many bytes per second per link and per
     * switch output port ({@code 1g}, {@code 256m}, or a plain number); unset (the default) or {@code 0}: off, and
     * requests pay nothing for it. With it, several senders to one node share that node's port, and a sender whose
     * message waits for a busy port sends nothing else meanwhile (head-of-line blocking). Every node of a cluster
     * should be given the same value: each node applies it to what it sends.
     */
    public static final String PORT_BANDWIDTH_OPTION = "shm.port-bandwidth";

    /**
     * With {@link #PORT_BANDWIDTH_OPTION}: the bytes a switch input port buffers (default 64 KiB): the part of a
     * message that may wait at a busy output port while its sender moves on.
     */
    public static final String INPUT_BUFFER_OPTION = "shm.input-buffer";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "processes on one host, through shared memory (/dev/shm)";
    }

    @Override
    public Fabric open(FabricConfig config) {
        return ShmFabric.open(config);
    }

    /**
     * Removes the node directories under {@code shm.directory} whose process died (the sweep a new node does). A
     * given directory that does not exist (any more) has nothing left in it and is not created: this runs after
     * worker processes end, possibly after their owner removed the directory.
     */
    @Override
    public int removeLeftovers(Map<String, String> options) {
        String option = options.get(DIRECTORY_OPTION);
        Path base;
        if (option != null) {
            base = Path.of(option); // never created here (ShmDirectory.base would), not even in a race with its removal
        } else {
            try {
                base = ShmDirectory.base(null);
            } catch (FaroException refused) {
                return 0; // no node could open there either; opening said why
            }
        }
        return Files.isDirectory(base) ? StaleNodeSweeper.sweep(base, ShmFabric.STALE_UNREADABLE_AGE_MS) : 0;
    }
}
