/** Opening a shuffle's endpoints on a node: the bootstrap exchange of addresses and keys, connection, first credit. */
package dev.faro.shuffle.setup;
