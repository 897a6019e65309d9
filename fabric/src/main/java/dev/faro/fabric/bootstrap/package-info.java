/**
 * The bootstrap all-gather through which the nodes of one piece of work swap queue-pair addresses and remote keys
 * before they connect (the "exchange routing information" step of TODS19 §2.3): {@link
 * dev.faro.fabric.bootstrap.PeerExchange}, with an in-JVM implementation ({@link
 * dev.faro.fabric.bootstrap.LocalPeerExchange}); the cluster runtime relays it through its coordinator. It lives
 * beside the fabric, not in a user of it, because several systems on the fabric need it once to connect and nothing
 * else of each other: the shuffle designs and the TCP baseline, the joins' RMA group, the DAIS16 middleware and its
 * NIO baseline, and the lock manager (which takes the gathered addresses, from this exchange in {@code faro bench
 * locks}).
 */
package dev.faro.fabric.bootstrap;
