package dev.faro.shuffle.endpoint;

/** How the threads of a SHUFFLE or RECEIVE operator use endpoints (TODS19 §4.3, Fig. 3). */
public enum EndpointSharing {
    /** Single Endpoint (SE): all threads of the operator share one endpoint; fewer resources, more contention. */
    SHARED,
    /** Multi-Endpoint (ME): each thread has its own endpoint; no contention, more queue pairs and memory. */
    PER_THREAD
}
