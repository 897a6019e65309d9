/**
 * Morsel-driven execution of a physical plan on one node: the {@link dev.faro.engine.exec.Catalog} of the node's
 * tables, the execution context (with one exchange transport), pipelines split at breakers with the pipelines each
 * must wait for, drivers moving batches between operators (honouring {@code isBlocked}), the scheduler that runs
 * breakers one after another while exchange producers stream alongside their consumers, each pipeline on T platform
 * threads, and the query executor with first-failure-wins propagation.
 */
package dev.faro.engine.exec;
