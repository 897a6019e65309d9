/**
 * Morsel-driven execution of a physical plan on one node: the {@link dev.faro.engine.exec.Catalog} of the node's
 * tables, the execution context, pipelines split at breakers, drivers moving batches between operators, and the
 * query executor that runs them on T platform threads with first-failure-wins propagation.
 */
package dev.faro.engine.exec;
