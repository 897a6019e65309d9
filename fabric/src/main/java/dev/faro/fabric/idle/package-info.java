/**
 * How the fabric's and its users' threads wait when they have nothing to do: {@link dev.faro.fabric.idle.ShortPark}
 * parks a thread for about as long as it asks, which Linux's default timer slack does not. The one place for idle
 * strategies shared by modules; data-path code, allocation-free.
 */
package dev.faro.fabric.idle;
