package dev.faro.zerosided.unit;

/**
 * An optional push of a processing unit's new pointer value to the switch, so that the switch need not wait for its
 * next poll (the paper's §6.2 doorbell). It reports a pointer; it never starts a data transfer.
 */
public interface Doorbell {

    /**
     * Tells the switch that the word at {@code wordOffset} of the buffer now holds {@code value}. Called by the thread
     * that wrote the word, after writing it.
     */
    void ring(long wordOffset, long value);
}
