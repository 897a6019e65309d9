/**
 * Faro's shuffle layer, after TODS19 (Liu, Yin, Blanas): the communication endpoint abstraction
 * ({@link dev.faro.shuffle.endpoint}), transmission groups, the endpoint designs built on the fabric API, the
 * credit protocol, and the data movement of the SHUFFLE and RECEIVE operators ({@link dev.faro.shuffle.operator}); the
 * exchange transport SPI ({@link dev.faro.shuffle.transport}) through which a query engine reaches them and the TCP
 * baseline. Knows nothing about SQL or plans.
 */
package dev.faro.shuffle;
