/**
 * Child worker JVMs and the line protocol that drives them. Experiments that need real processes (the fabric
 * benchmark now, shuffle workers later) start them with {@link dev.faro.bench.process.WorkerProcess} from the
 * coordinator, and the child's {@code main} answers through {@link dev.faro.bench.process.WorkerChannel}.
 * Coordination code throughout.
 *
 * <h2>Launch</h2>
 * A worker runs the coordinator's own {@code java} binary with the coordinator's class path, native access
 * enabled and a small heap, so it sees exactly the classes the coordinator sees. Every live worker is registered
 * with the cluster runtime's {@link dev.faro.cluster.launch.ChildProcesses}, whose shutdown hook stops it gracefully
 * (SIGTERM, a bounded wait, SIGKILL) and then removes the fabric files dead workers left, and a worker exits by
 * itself when its standard input closes, so a coordinator that dies, even by SIGKILL, leaves no worker behind.
 *
 * <h2>Line protocol</h2>
 * <pre>
 *  coordinator                                   worker (WorkerChannel)
 *      │ ── "VERB arg1 arg2\n" (stdin) ─────────────►│  one command per line, words split by spaces,
 *      │                                             │  binary values (keys, addresses) as hex
 *      │ ◄──────── "@faro OK payload\n" (stdout) ────│  exactly one reply per command, in order
 *      │ ◄──────── "@faro ERROR message\n" ──────────│  ... or a one-line error; the worker stays up
 *      │ ◄──────── any other stdout / stderr line ───│  forwarded to the coordinator's log, never parsed
 *      │ ── "EXIT\n" or end of stdin ────────────────►│  the worker answers EXIT, then ends its main loop
 * </pre>
 * Replies carry a prefix so that a library that prints to standard output cannot be mistaken for a reply; the
 * channel also points {@code System.out} at standard error. No Java serialization crosses the pipe.
 *
 * <h2>Failure</h2>
 * A worker whose standard output ends (it died) or that does not answer within the command's timeout fails the
 * request with a {@link dev.faro.bench.process.WorkerFailedException} that names the worker, the command, the exit
 * code when known, and the last lines it wrote to standard error.
 */
package dev.faro.bench.process;
