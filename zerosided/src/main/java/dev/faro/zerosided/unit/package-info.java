/**
 * The processing-unit library of zero-sided RDMA: the zero-sided circular buffer
 * ({@link dev.faro.zerosided.unit.ZeroSidedBuffer}, layout in
 * {@link dev.faro.zerosided.unit.ZeroSidedBufferDescriptor}) with push and pop as local memory operations under
 * release/acquire ordering (the paper's requirement 3), and the optional {@link dev.faro.zerosided.unit.Doorbell}.
 * There is deliberately <b>no operation that starts a data movement</b>: a PU only writes its own pointer; the switch
 * does the rest. Depends on nothing else of the module.
 */
package dev.faro.zerosided.unit;
