package dev.faro.fabric;

/**
 * The fabric contract without its UD part, for providers that offer RC queue pairs only ({@code ucx}): every area of
 * {@link FabricConformanceSuite} except {@link UdConformance}. The remaining areas test UD only where
 * {@link FabricCapabilities#supportsUd()} says the provider has it, so nothing else is left out. A provider's test
 * class extends this and implements {@link #config(String)}, as with the full suite.
 */
public abstract class RcFabricConformanceSuite extends FabricTestHarness
        implements AddressConformance,
                MemoryProtectionConformance,
                RcConformance,
                OneSidedConformance,
                QueueConformance,
                PeerFailureConformance,
                StressConformance {}
