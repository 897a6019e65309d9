/**
 * Faro's fabric: a verbs-like API (registered memory with keys and rights, completion queues, RC and UD queue pairs,
 * SEND / WRITE / WRITE_WITH_IMMEDIATE / READ / FETCH_ADD / COMPARE_SWAP) on which the TODS19 shuffle designs are built
 * exactly as the paper describes them, and which every provider implements with the same semantics (the fabric
 * contract in {@code shared/docs/architecture.md}, checked by one conformance suite per provider).
 *
 * <p>This package holds what a user of the fabric needs: {@link dev.faro.fabric.Fabrics} to open a
 * {@link dev.faro.fabric.Fabric} node from a {@link dev.faro.fabric.FabricConfig}, memory regions and remote keys,
 * queue pairs, completion queues, the work requests the user builds and the completions it polls, and
 * {@link dev.faro.fabric.FaroException}. Knows nothing about tuples or queries.
 *
 * <p>Providers live in sub-packages ({@code shm}, {@code net}, {@code ucx}), each with one public
 * {@link dev.faro.fabric.FabricProvider}; what they share is the SPI in {@code dev.faro.fabric.spi}, which is not for
 * users.
 */
package dev.faro.fabric;
