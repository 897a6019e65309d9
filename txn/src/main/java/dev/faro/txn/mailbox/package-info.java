/**
 * The mailboxes of ETH19 §5.2.3: the message slot layout ({@link dev.faro.txn.mailbox.MessageDescriptor}) that lock
 * servers (one slot per transaction agent) and agents (one slot) receive through notified puts
 * (WRITE_WITH_IMMEDIATE, the immediate naming the writer).
 */
package dev.faro.txn.mailbox;
