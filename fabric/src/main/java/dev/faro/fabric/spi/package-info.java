/**
 * The fabric's provider SPI: the scaffolding that the providers ({@code shm}, {@code net}, {@code ucx}) share so that
 * each refuses the same misuse with the same message and none carries its own copy of a ring, a skeleton or a check.
 * <strong>Not for users of the fabric</strong>: these types are public only because the providers live in other
 * packages; their fields and methods change whenever a provider needs it. Applications use {@code dev.faro.fabric}.
 *
 * <ul>
 *   <li>Fabric nodes: {@link dev.faro.fabric.spi.AbstractFabric} (the open check, the register, create and close
 *       skeletons), {@link dev.faro.fabric.spi.FabricChecks}.
 *   <li>Memory: {@link dev.faro.fabric.spi.AbstractMemoryRegion} and its {@link dev.faro.fabric.spi.RegionPins}.
 *   <li>Queue pairs: {@link dev.faro.fabric.spi.AbstractQueuePair} (the state and the validate-then-post skeleton),
 *       {@link dev.faro.fabric.spi.AbstractQueuePairAddress}, {@link dev.faro.fabric.spi.QueuePairChecks},
 *       {@link dev.faro.fabric.spi.WorkRequestChecks}; for providers whose progress thread works from copies of
 *       posted requests, {@link dev.faro.fabric.spi.SendQueue} of {@link dev.faro.fabric.spi.PostedSend}s and
 *       {@link dev.faro.fabric.spi.PostedReceives}.
 *   <li>Completion queues: {@link dev.faro.fabric.spi.AbstractCompletionQueue} (id, capacity, budget, closed),
 *       {@link dev.faro.fabric.spi.HeapCompletionQueue} (the lock-free ring in the heap of {@code net} and
 *       {@code ucx}), {@link dev.faro.fabric.spi.CompletionQueueBudget}, {@link dev.faro.fabric.spi.CompletionWaiters}.
 * </ul>
 */
package dev.faro.fabric.spi;
