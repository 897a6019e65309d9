package dev.faro.bench.fabric;

import dev.faro.fabric.Opcode;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The operations {@code faro bench fabric} measures, each with its command-line name and its label in reports. */
public enum FabricOperation {
    /** RDMA WRITE on an RC queue pair: the initiator copies into the target's region. */
    WRITE("write", "RC WRITE", Opcode.WRITE, false),
    /** RDMA READ on an RC queue pair: the initiator copies from the target's region. */
    READ("read", "RC READ", Opcode.READ, false),
    /** Two-sided SEND on an RC queue pair; the target's receiver thread reposts receives and returns credit. */
    RC_SEND("rc-send", "RC SEND", Opcode.SEND, true),
    /** Two-sided SEND on UD queue pairs, at most the MTU; credit keeps the sender from overrunning the receives. */
    UD_SEND("ud-send", "UD SEND", Opcode.SEND, true);

    private final String cliName;
    private final String label;
    private final Opcode opcode;
    private final boolean twoSided;

    FabricOperation(String cliName, String label, Opcode opcode, boolean twoSided) {
        this.cliName = cliName;
        this.label = label;
        this.opcode = opcode;
        this.twoSided = twoSided;
    }

    /** The name on the command line, in the protocol and in CSV files: {@code write}, {@code rc-send}. */
    public String cliName() {
        return cliName;
    }

    /** The label in tables and plots: {@code RC WRITE}, {@code UD SEND}. */
    public String label() {
        return label;
    }

    public Opcode opcode() {
        return opcode;
    }

    /** Whether the target's threads take part (post and repost receives). */
    public boolean isTwoSided() {
        return twoSided;
    }

    public boolean isUd() {
        return this == UD_SEND;
    }

    /**
     * Parses a command-line name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the known operations
     */
    public static FabricOperation fromCliName(String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (FabricOperation operation : values()) {
            if (operation.cliName.equals(wanted)) {
                return operation;
            }
        }
        throw new IllegalArgumentException("unknown operation '" + name + "'; known: " + knownNames());
    }

    /** The command-line names, comma-separated. */
    public static String knownNames() {
        return Arrays.stream(values()).map(FabricOperation::cliName).collect(Collectors.joining(", "));
    }
}
