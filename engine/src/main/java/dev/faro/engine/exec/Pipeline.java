package dev.faro.engine.exec;

import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.engine.operator.SinkFactory;
import java.util.List;

/**
 * One pipeline of a compiled plan: a source, streaming operators and a sink (a breaker), run by {@code threads}
 * drivers. {@code sendsTo}, when set, is the exchange whose sending side this pipeline is: its receivers start with
 * the pipeline.
 */
record Pipeline(
        int id,
        String description,
        List<OperatorFactory> operators,
        SinkFactory sink,
        int threads,
        ShuffleExchange sendsTo) {

    Pipeline {
        operators = List.copyOf(operators);
    }
}
