package dev.faro.shuffle.endpoint;

/** Whether a buffer is followed by more from the same sender (TODS19 §4.2: MoreData, Depleted). */
public enum StreamState {
    /** More buffers follow from this sending endpoint. */
    MORE_DATA,
    /** The sending endpoint's last buffer to this destination. */
    DEPLETED
}
