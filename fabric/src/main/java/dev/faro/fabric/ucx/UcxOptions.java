package dev.faro.fabric.ucx;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FaroException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code ucx.*} options of a node, parsed once at open (see {@link UcxFabricProvider}).
 *
 * @param contextSettings UCX settings for the UCP context's configuration (names without {@code UCX_})
 * @param processSettings UCX settings that only the environment can carry (read when libucx loads)
 * @param errorMode {@code auto}, {@code peer} or {@code none}
 * @param busySpin whether the progress thread never parks
 * @param sharedMemory whether the transports ({@code ucx.tls}, else the environment's {@code UCX_TLS}, else all)
 *     include shared memory
 */
record UcxOptions(
        Map<String, String> contextSettings,
        Map<String, String> processSettings,
        String errorMode,
        boolean busySpin,
        boolean sharedMemory) {

    /** UCX's shared-memory transports and their aliases. */
    /** UCX's shared-memory transports; the aliases {@code sm} and {@code shm} name them all. */
    private static final Set<String> SHARED_MEMORY_TRANSPORTS = Set.of("posix", "sysv", "cma", "knem", "xpmem");

    static UcxOptions of(FabricConfig config) {
        Map<String, String> context = new TreeMap<>();
        Map<String, String> process = new TreeMap<>();
        for (var option : config.options().entrySet()) {
            String key = option.getKey();
            if (!key.startsWith("ucx.")) {
                continue;
            }
            String name = key.substring(4);
            switch (key) {
                case UcxFabricProvider.TLS_OPTION -> put(context, process, "TLS", option.getValue());
                case UcxFabricProvider.DEVICES_OPTION -> put(context, process, "NET_DEVICES", option.getValue());
                case UcxFabricProvider.ERROR_MODE_OPTION, UcxFabricProvider.IDLE_OPTION -> {}
                default -> {
                    if (!name.matches("[A-Z][A-Z0-9_]*")) {
                        throw new FaroException(
                                FaroException.Category.INVALID_ARGUMENT,
                                "unknown ucx option '" + key
                                        + "': use ucx.tls, ucx.devices, ucx.error-mode, ucx.idle, or ucx.NAME (capitals) for"
                                        + " the UCX setting UCX_NAME");
                    }
                    put(context, process, name, option.getValue());
                }
            }
        }
        String errorMode = config.option(UcxFabricProvider.ERROR_MODE_OPTION, "auto");
        FaroException.checkArgument(
                errorMode.equals("auto") || errorMode.equals("peer") || errorMode.equals("none"),
                "ucx.error-mode must be auto, peer or none: '%s'",
                errorMode);
        if (errorMode.equals("auto") && context.containsKey("TLS") && sharedMemoryOnly(context.get("TLS"))) {
            errorMode = "none"; // no shared-memory transport handles peer failure: do not even ask (UCX logs it)
        }
        String idle = config.option(UcxFabricProvider.IDLE_OPTION, "backoff");
        FaroException.checkArgument(
                idle.equals("backoff") || idle.equals("spin"), "ucx.idle must be 'backoff' or 'spin': '%s'", idle);
        String transports = context.getOrDefault("TLS", System.getenv("UCX_TLS"));
        return new UcxOptions(
                Map.copyOf(context),
                Map.copyOf(process),
                errorMode,
                idle.equals("spin"),
                includesSharedMemory(transports));
    }

    /**
     * Whether a UCX_TLS value (null or empty: all; {@code ^a,b}: all but a and b) includes a shared-memory transport
     * ({@code sm} and {@code shm} name them all).
     */
    static boolean includesSharedMemory(String transports) {
        if (transports == null || transports.isBlank() || transports.strip().equals("all")) {
            return true;
        }
        boolean exclude = transports.strip().startsWith("^");
        Set<String> names = new HashSet<>();
        for (String transport : transports.strip().replace("^", "").split(",")) {
            names.add(transport.strip());
        }
        boolean everyOne = names.contains("sm") || names.contains("shm");
        if (exclude) {
            return !(everyOne || names.containsAll(SHARED_MEMORY_TRANSPORTS));
        }
        return everyOne || names.stream().anyMatch(SHARED_MEMORY_TRANSPORTS::contains);
    }

    /** Whether a UCX_TLS value names only shared-memory and loopback transports. */
    static boolean sharedMemoryOnly(String transports) {
        for (String transport : transports.split(",")) {
            String name = transport.strip().replace("^", "");
            if (!(name.equals("self")
                    || name.equals("sm")
                    || name.equals("shm")
                    || SHARED_MEMORY_TRANSPORTS.contains(name))) {
                return false;
            }
        }
        return true;
    }

    private static void put(Map<String, String> context, Map<String, String> process, String name, String value) {
        String bare = name.startsWith("UCX_") ? name.substring(4) : name;
        (UcxLibrary.PROCESS_SETTINGS.contains(bare) || bare.startsWith("MEM_") ? process : context).put(bare, value);
    }
}
