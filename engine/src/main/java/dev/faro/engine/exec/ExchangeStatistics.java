package dev.faro.engine.exec;

import dev.faro.engine.plan.ExchangeKind;

/**
 * What one exchange moved at this node: rows and bytes this node sent (each row counted once, however many
 * destinations it had) and received; {@code rowBytes} is the mean encoded row size sent (rows travel with their real
 * length); {@code sendNanos} the wall time of the pipeline that produced and sent the rows here;
 * {@code buffersHeldHighWater} the most transport buffers this node's threads held at once.
 */
public record ExchangeStatistics(
        int exchange,
        ExchangeKind kind,
        int rowBytes,
        long rowsSent,
        long bytesSent,
        long rowsReceived,
        long bytesReceived,
        long sendNanos,
        int buffersHeldHighWater) {}
