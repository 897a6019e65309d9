/**
 * What the transports' tests share across modules (shuffle's test-jar): streams of longs written into an exchange and
 * drained from it. Test code.
 */
package dev.faro.shuffle.testing;
