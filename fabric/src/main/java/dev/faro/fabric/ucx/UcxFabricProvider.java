package dev.faro.fabric.ucx;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricProvider;

/**
 * The {@code ucx} provider: fabric nodes over UCX through JUCX ({@code org.openucx:jucx}) and the system's libucx
 * (Debian {@code libucx0} &ge; 1.12): RDMA on InfiniBand or RoCE NICs, shared memory or TCP elsewhere. RC queue pairs
 * only; see this package's documentation for how each operation maps onto UCX.
 *
 * <p>Options ({@link FabricConfig#options()}):
 * <ul>
 *   <li>{@value #TLS_OPTION}: the UCX transports, passed as {@code UCX_TLS} (e.g. {@code sm,self}, {@code tcp,self},
 *       {@code rc,sm,self}); default: UCX's own choice;</li>
 *   <li>{@value #DEVICES_OPTION}: passed as {@code UCX_NET_DEVICES} (e.g. {@code mlx5_0:1});</li>
 *   <li>{@code ucx.NAME} with NAME in capitals: any other UCX setting, passed as {@code UCX_NAME} through the UCP
 *       context configuration (e.g. {@code ucx.RNDV_THRESH=64k}); settings of the whole process ({@code ERROR_SIGNALS},
 *       {@code LOG_LEVEL}, {@code MEM_*}, {@code HANDLE_ERRORS}) go to the environment before libucx loads, so they
 *       count only in the first node a JVM opens;</li>
 *   <li>{@value #ERROR_MODE_OPTION}: {@code auto} (default), {@code peer} or {@code none}: UCX's peer failure handling
 *       for endpoints. {@code peer} needs transports that detect failed peers (tcp, rc, ud, dc: not shared memory);
 *       {@code auto} asks for it but for a peer on the same host (same boot, host name and IPC, mount and PID
 *       namespaces) when the transports include shared memory, which has none: asking would make UCX use TCP there.
 *       The provider's own heartbeat detects dead or silent peers in every mode;</li>
 *   <li>{@value #IDLE_OPTION}: {@code backoff} (default) or {@code spin} (the progress thread never parks).</li>
 * </ul>
 *
 * <p>Defaults applied automatically, each unless the environment sets it: {@code UCX_ERROR_SIGNALS} empty (UCX must
 * not take SIGSEGV and friends from the JVM, which uses them for null checks and safepoints),
 * {@code UCX_WARN_UNUSED_ENV_VARS=n}, and the soft {@code RLIMIT_MEMLOCK} raised to the hard limit (RDMA
 * registration pins memory; a container needs {@code --ulimit memlock=-1} for real NICs). A missing or too old libucx is a one-line
 * {@link dev.faro.fabric.FaroException} ({@code NOT_SUPPORTED}) at open.
 */
public final class UcxFabricProvider implements FabricProvider {

    public static final String NAME = "ucx";
    public static final String TLS_OPTION = "ucx.tls";
    public static final String DEVICES_OPTION = "ucx.devices";
    public static final String ERROR_MODE_OPTION = "ucx.error-mode";
    public static final String IDLE_OPTION = "ucx.idle";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "UCX through JUCX: RDMA NICs (InfiniBand, RoCE), shared memory or TCP; RC only";
    }

    @Override
    public Fabric open(FabricConfig config) {
        return UcxFabric.open(config);
    }
}
