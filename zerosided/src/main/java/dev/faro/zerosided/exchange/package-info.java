/**
 * The zero-sided switch as an exchange transport of the engine ({@link
 * dev.faro.zerosided.exchange.ZeroSidedTransport}, registered by {@link
 * dev.faro.zerosided.exchange.ZeroSidedTransports}): repartition and gather as a key-based shuffle flow, broadcast as
 * a replication flow, through the exchange SPI of {@code dev.faro.shuffle.transport}.
 */
package dev.faro.zerosided.exchange;
