package dev.faro.zerosided.link;

import java.util.Arrays;
import java.util.Locale;

/**
 * The packet links that connect processes of one host, by the name options use: {@link #SHM} (the default of the
 * multi-process runs: no system call per datagram) and {@link #UDP} (a real socket per attachment point).
 */
public enum LinkKind {
    /** {@link ShmPacketLink} in {@link ShmPacketLink#defaultDirectory()}. */
    SHM("shm", "shared-memory packet rings (mapped files, one per port)"),
    /** {@link UdpPacketLink} on 127.0.0.1. */
    UDP("udp", "UDP on 127.0.0.1 (a sendto and a recvfrom per datagram)");

    private final String optionName;
    private final String description;

    LinkKind(String optionName, String description) {
        this.optionName = optionName;
        this.description = description;
    }

    /** The name options and reports use: {@code shm}, {@code udp}. */
    public String optionName() {
        return optionName;
    }

    /** One phrase for reports. */
    public String description() {
        return description;
    }

    /** Opens a link of this kind on a fresh port. */
    public PacketLink open() {
        return switch (this) {
            case SHM -> ShmPacketLink.open(ShmPacketLink.defaultDirectory());
            case UDP -> UdpPacketLink.open(0);
        };
    }

    /**
     * The kind named {@code name}.
     *
     * @throws IllegalArgumentException naming the kinds when there is none of that name
     */
    public static LinkKind of(String name) {
        return Arrays.stream(values())
                .filter(kind -> kind.optionName.equals(name.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("link must be shm or udp: " + name));
    }
}
