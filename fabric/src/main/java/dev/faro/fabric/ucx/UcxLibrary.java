package dev.faro.fabric.ucx;

import dev.faro.fabric.FaroException;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Map;

/**
 * Loads libucx and JUCX once per JVM, after checking that the library is there and new enough, and after putting the
 * process-wide defaults into the environment (UCX reads them when its libraries load). Every failure is one
 * {@link FaroException} line naming what to install, never an {@link UnsatisfiedLinkError} stack.
 *
 * <p>Coordination code; thread-safe ({@code synchronized}).
 */
final class UcxLibrary {

    private static final System.Logger LOG = System.getLogger(UcxLibrary.class.getName());

    /** The oldest libucp JUCX 1.12.1 runs on (the API it was built against). */
    static final int MINIMUM_MAJOR = 1;

    static final int MINIMUM_MINOR = 12;

    /** UCX settings read from the environment when libucs loads, not through a UCP context's configuration. */
    static final java.util.Set<String> PROCESS_SETTINGS = java.util.Set.of(
            "ERROR_SIGNALS",
            "HANDLE_ERRORS",
            "LOG_LEVEL",
            "LOG_FILE",
            "MEM_EVENTS",
            "MEM_MALLOC_HOOKS",
            "MEM_MMAP_HOOK_MODE",
            "MEMTYPE_CACHE",
            "ERROR_MAIL_TO",
            "GDB_COMMAND",
            "DEBUG_SIGNO");

    private static boolean loaded;
    private static String version;
    private static FaroException failure;

    private UcxLibrary() {}

    /**
     * Makes sure libucx and JUCX are loaded; {@code processSettings} (UCX names without the prefix) go into the
     * environment first, unless the environment already has them. Settings given after the first load are logged and
     * ignored.
     */
    static synchronized String load(Map<String, String> processSettings) {
        if (failure != null) {
            throw failure;
        }
        if (loaded) {
            for (var setting : processSettings.entrySet()) {
                String current = System.getenv("UCX_" + setting.getKey());
                LOG.log(
                        Level.DEBUG,
                        "UCX_{0}={1} comes too late: libucx is loaded (process value: {2})",
                        setting.getKey(),
                        setting.getValue(),
                        current);
            }
            return version;
        }
        try {
            // before anything loads libucs: it reads these when it initializes
            for (var setting : processSettings.entrySet()) {
                setEnvironment("UCX_" + setting.getKey(), setting.getValue());
            }
            setEnvironment("UCX_ERROR_SIGNALS", "");
            setEnvironment("UCX_WARN_UNUSED_ENV_VARS", "n");
            raiseMemlockLimit();
            version = checkVersion();
            try {
                org.openucx.jucx.NativeLibs.load();
                // touching a native method proves that libjucx resolved against this libucx
                Class.forName("org.openucx.jucx.ucs.UcsConstants", true, UcxLibrary.class.getClassLoader());
            } catch (UnsatisfiedLinkError | ExceptionInInitializerError | ClassNotFoundException e) {
                throw new FaroException(
                        FaroException.Category.NOT_SUPPORTED,
                        "the ucx provider cannot load JUCX"
                                + " against libucx " + version + ": " + firstLine(e) + " (install libucx0 >= "
                                + MINIMUM_MAJOR + "." + MINIMUM_MINOR + ")",
                        e);
            } catch (NoClassDefFoundError e) {
                throw new FaroException(
                        FaroException.Category.NOT_SUPPORTED,
                        "the ucx provider needs JUCX (org.openucx:jucx) on the class path",
                        e);
            }
            loaded = true;
            LOG.log(Level.DEBUG, "libucx {0} loaded", version);
            return version;
        } catch (FaroException e) {
            failure = e;
            throw e;
        }
    }

    /** The version of the system's libucp, or a NOT_SUPPORTED failure saying it is missing or too old. */
    private static String checkVersion() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup ucp;
        try {
            ucp = SymbolLookup.libraryLookup("libucp.so.0", Arena.global());
        } catch (IllegalArgumentException e) {
            throw new FaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "the ucx provider needs libucx (libucp.so.0"
                            + " not found: install libucx0 >= " + MINIMUM_MAJOR + "." + MINIMUM_MINOR
                            + ", e.g. apt-get install libucx0)");
        }
        MemorySegment symbol = ucp.find("ucp_get_version")
                .orElseThrow(() -> new FaroException(
                        FaroException.Category.NOT_SUPPORTED, "libucp.so.0 has no ucp_get_version: not a UCX library"));
        MethodHandle getVersion = linker.downcallHandle(
                symbol, FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment numbers = arena.allocate(ValueLayout.JAVA_INT, 3);
            getVersion.invokeExact(numbers, numbers.asSlice(4), numbers.asSlice(8));
            int major = numbers.getAtIndex(ValueLayout.JAVA_INT, 0);
            int minor = numbers.getAtIndex(ValueLayout.JAVA_INT, 1);
            int release = numbers.getAtIndex(ValueLayout.JAVA_INT, 2);
            String found = major + "." + minor + "." + release;
            if (major < MINIMUM_MAJOR || (major == MINIMUM_MAJOR && minor < MINIMUM_MINOR)) {
                throw new FaroException(
                        FaroException.Category.NOT_SUPPORTED,
                        "libucx " + found
                                + " is too old for the ucx provider: install libucx0 >= " + MINIMUM_MAJOR + "."
                                + MINIMUM_MINOR);
            }
            return found;
        } catch (FaroException e) {
            throw e;
        } catch (Throwable e) {
            throw new FaroException(FaroException.Category.NOT_SUPPORTED, "cannot ask libucp for its version: " + e, e);
        }
    }

    /** setenv(name, value, 0): the environment a user set wins over the provider's default. */
    private static void setEnvironment(String name, String value) {
        Linker linker = Linker.nativeLinker();
        MethodHandle setenv = linker.downcallHandle(
                linker.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            int result = (int) setenv.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 0);
            if (result != 0) {
                LOG.log(Level.WARNING, "setenv({0}) failed; UCX keeps its default", name);
            }
        } catch (Throwable e) {
            LOG.log(Level.WARNING, "setenv(" + name + ") failed; UCX keeps its default", e);
        }
    }

    /** Raises the soft RLIMIT_MEMLOCK to the hard limit: registering memory with an RDMA NIC pins it. */
    private static void raiseMemlockLimit() {
        final int rlimitMemlock = 8; // Linux
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor descriptor =
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        try (Arena arena = Arena.ofConfined()) {
            MethodHandle getrlimit = linker.downcallHandle(
                    linker.defaultLookup().find("getrlimit").orElseThrow(), descriptor);
            MethodHandle setrlimit = linker.downcallHandle(
                    linker.defaultLookup().find("setrlimit").orElseThrow(), descriptor);
            MemorySegment limit = arena.allocate(ValueLayout.JAVA_LONG, 2);
            if ((int) getrlimit.invokeExact(rlimitMemlock, limit) != 0) {
                return;
            }
            long soft = limit.getAtIndex(ValueLayout.JAVA_LONG, 0);
            long hard = limit.getAtIndex(ValueLayout.JAVA_LONG, 1);
            if (Long.compareUnsigned(soft, hard) < 0) {
                limit.setAtIndex(ValueLayout.JAVA_LONG, 0, hard);
                int ignored = (int) setrlimit.invokeExact(rlimitMemlock, limit);
            }
            LOG.log(Level.DEBUG, "RLIMIT_MEMLOCK: soft {0}, hard {1} (-1: unlimited)", soft, hard);
        } catch (Throwable e) {
            LOG.log(Level.DEBUG, "cannot raise RLIMIT_MEMLOCK", e);
        }
    }

    private static String firstLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
