/**
 * Starting worker JVMs on this host for a local cluster: the command line (this JVM's {@code java} and class path,
 * native access, heap, options), the secret through the environment, output forwarding with a {@code [node N]}
 * prefix (stack-trace frames diverted to a log file under {@code <java.io.tmpdir>/faro-logs}), and one shutdown hook
 * ({@link dev.faro.cluster.launch.ChildProcesses}) that stops every child gracefully when this JVM ends: SIGTERM,
 * a bounded wait, then SIGKILL, so no orphan process is left.
 *
 * <pre>
 *  Ctrl-C / SIGTERM of the coordinator JVM
 *    ├─ Coordinator.close (LocalCluster's hook): SHUTDOWN to every worker ─► worker closes its fabric (removes its
 *    │    shm directory) and exits 0; wait, then SIGTERM/SIGKILL the rest; remove dead workers' leftovers
 *    └─ ChildProcesses' hook: SIGTERM to every live child ─► the worker's hook closes its fabric, exit 143;
 *         after ChildProcesses.STOP_GRACE: SIGKILL ─► the coordinator removes that worker's leftovers
 * </pre>
 */
package dev.faro.cluster.launch;
