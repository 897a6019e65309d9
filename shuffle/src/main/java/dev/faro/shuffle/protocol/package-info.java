/** Layouts of what endpoints share on the wire and in registered memory: message headers, credit words. */
package dev.faro.shuffle.protocol;
