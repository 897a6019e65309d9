package dev.faro.fabric.shm;

import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread of an {@code shm} node. It never touches data a peer asked for; it only
 * <ol>
 *   <li>retries this node's deferred requests (SENDs waiting for a receive, held reordered datagrams), and</li>
 *   <li>every {@link #LIVENESS_INTERVAL_NS} checks the peers this node has mapped files of; a peer whose fabric
 *       closed or whose process died turns the queue pairs connected to it into error completions and is unmapped,
 *       and of the live ones (this node included) it unmaps the files their owners retired ({@link
 *       PeerNode#releaseRetired}).</li>
 * </ol>
 * It parks when there is nothing deferred, so an idle node costs nothing.
 */
final class ProgressAgent implements Runnable {

    static final long LIVENESS_INTERVAL_NS = 100_000_000;
    private static final long DEFERRED_PARK_NS = 20_000;

    private final ShmFabric fabric;
    private final Thread thread;
    private volatile boolean running = true;

    ProgressAgent(ShmFabric fabric, String nodeName) {
        this.fabric = fabric;
        this.thread = Thread.ofPlatform()
                .daemon()
                .name("faro-shm-progress-" + nodeName)
                .unstarted(this);
    }

    void start() {
        thread.start();
    }

    void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        long nextLivenessNs = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            boolean deferred = false;
            try {
                deferred = fabric.progressDeferred(now);
                if (now - nextLivenessNs >= 0) {
                    fabric.checkPeers();
                    nextLivenessNs = now + LIVENESS_INTERVAL_NS;
                }
            } catch (RuntimeException e) {
                if (running) {
                    fabric.reportAgentFailure(e);
                }
            }
            LockSupport.parkNanos(deferred ? DEFERRED_PARK_NS : LIVENESS_INTERVAL_NS);
        }
    }

    void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
