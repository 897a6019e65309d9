/**
 * Buffer management (TODS19 §6): the node's pool of registered buffers, the policies that size an endpoint's queue
 * of buffers (fixed, bandwidth-delay product, adaptive), and per-state buffer counters.
 */
package dev.faro.shuffle.buffer;
