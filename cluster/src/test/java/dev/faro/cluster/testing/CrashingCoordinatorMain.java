package dev.faro.cluster.testing;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.protocol.Json;
import java.time.Duration;

/**
 * A coordinator process that dies without cleaning up: starts a local cluster of two workers ({@code args[0]} is
 * the shm directory), runs one round, prints {@code PIDS a b} and halts (no shutdown hooks). The workers must notice
 * the dropped connection and exit by themselves.
 */
public final class CrashingCoordinatorMain {

    private CrashingCoordinatorMain() {}

    public static void main(String[] args) {
        Coordinator cluster = LocalCluster.start(
                ClusterConfig.local(2).withWorkerHeap("256m").withProviderOption("shm.directory", args[0]));
        cluster.runOnAll("echo", Json.object(), Duration.ofSeconds(60));
        System.out.println("PIDS " + cluster.workerPids().get(0) + " "
                + cluster.workerPids().get(1));
        System.out.flush();
        Runtime.getRuntime().halt(1);
    }
}
