/**
 * The bootstrap all-gather through which the nodes of one piece of work swap queue-pair addresses and remote keys
 * before they connect (the "exchange routing information" step of TODS19 §2.3): {@link
 * dev.faro.fabric.bootstrap.PeerExchange}, with an in-JVM implementation ({@link
 * dev.faro.fabric.bootstrap.LocalPeerExchange}); the cluster runtime relays it through its coordinator. It lives
 * beside the fabric, not in a user of it, because every system on the fabric (the shuffle designs, the joins, the
 * lock manager, the middleware) needs it once to connect and nothing else of the others.
 */
package dev.faro.fabric.bootstrap;
