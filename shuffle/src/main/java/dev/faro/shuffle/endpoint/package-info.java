/**
 * The communication endpoint abstraction of TODS19 §4.2: {@link dev.faro.shuffle.endpoint.SendEndpoint} (ACQUIRE,
 * PUTDATA) and {@link dev.faro.shuffle.endpoint.ReceiveEndpoint} (GETDATA, RELEASE), transmission groups, and the
 * eight designs ({@link dev.faro.shuffle.endpoint.EndpointDesign}). Implementations live in sub-packages, one per
 * transport primitive.
 */
package dev.faro.shuffle.endpoint;
