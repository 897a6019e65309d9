/**
 * Faro's fabric: a verbs-like API (registered memory with keys and rights, completion queues, RC and UD queue pairs,
 * SEND / WRITE / WRITE_WITH_IMMEDIATE / READ / FETCH_ADD / COMPARE_SWAP) on which the TODS19 shuffle designs are built
 * exactly as the paper describes them, and which every provider implements with the same semantics (the fabric
 * contract in {@code shared/docs/architecture.md}, checked by one conformance suite per provider).
 *
 * <p>Knows nothing about tuples or queries. Providers live in sub-packages ({@code shm}, later {@code net} and
 * {@code ucx}), each with one public {@link dev.faro.fabric.FabricProvider}.
 */
package dev.faro.fabric;
