package dev.faro.fabric;

/**
 * A snapshot of a fabric node's counters. Counters are approximate while traffic flows.
 *
 * @param udReceivesMissed UD SENDs that arrived at this node's queue pairs and found no posted receive (dropped)
 * @param udSendsLostByFaults UD SENDs from this node dropped by fault injection
 * @param udSendsDuplicatedByFaults UD SENDs from this node delivered twice by fault injection
 * @param udSendsReorderedByFaults UD SENDs from this node held back and delivered late by fault injection
 * @param receiverNotReadyRetries times a SEND or WRITE_WITH_IMMEDIATE from this node found no receive and waited
 * @param peerFailures peers this node found dead or closed while connected to them
 * @param completionsLost completion-queue slots skipped because the peer that claimed them died before filling them
 */
public record FabricCounters(
        long udReceivesMissed,
        long udSendsLostByFaults,
        long udSendsDuplicatedByFaults,
        long udSendsReorderedByFaults,
        long receiverNotReadyRetries,
        long peerFailures,
        long completionsLost) {}
