/**
 * Starting worker JVMs on this host for a local cluster: the command line (this JVM's {@code java} and class path,
 * native access, heap, options), the secret through the environment, output forwarding with a {@code [node N]}
 * prefix, and a shutdown hook that leaves no orphan process.
 */
package dev.faro.cluster.launch;
