/**
 * Send/Receive endpoints (TODS19 §5.2–5.3). RC Send/Receive ("MQ/SR") with the stateless credit protocol:
 *
 * <pre>
 *  send endpoint (node s)                                  receive endpoint (node d)
 *                          ◄── WRITE credit=16 (inline) ── start: post 16 receives for s
 *  claim credit (sent 0→1, CAS)
 *  SEND buffer ─────────────────────────────────────────►  GETDATA: poll CQ, decode header
 *  ...                                                     RELEASE: re-post receive, credit++,
 *                          ◄── WRITE credit=18 ──────────           every f=2: write credit back
 *  SEND DEPLETED (last data) ───────────────────────────►  stop re-posting for s;
 *                          ◄── WRITE credit=c | FINAL ───  write FINAL credit c
 *  close: pad with empty SENDs while sent &lt; c ─────────►  (padding consumes the posted receives)
 *  wait for completions, close                             close: wait until no receive is posted, close
 * </pre>
 *
 * Credits are absolute (total receives posted), so a repeated or late credit write is harmless; a SEND goes out only
 * while {@code credit > sent}, so it always finds a posted receive. Padding to the FINAL credit gives the paper's
 * send/receive parity: no receive remains posted when the queue pairs close.
 */
package dev.faro.shuffle.endpoint.twosided;
