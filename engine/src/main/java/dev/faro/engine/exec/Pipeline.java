package dev.faro.engine.exec;

import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.engine.operator.SinkFactory;
import java.util.List;
import java.util.Set;

/**
 * One pipeline of a compiled plan: a source, streaming operators and a sink (a breaker), run by {@code threads}
 * drivers. {@code after} are the pipelines that must have completed before it starts (their sinks' products are its
 * source or its join's build). {@code sendsTo}, when set, is the exchange whose sending side this pipeline is: it runs
 * alongside the exchange's consuming pipeline. {@code exchanges} are those whose sides it runs (sending or receiving):
 * it starts only once they are open.
 */
record Pipeline(
        int id,
        String description,
        List<OperatorFactory> operators,
        SinkFactory sink,
        int threads,
        Set<Integer> after,
        ShuffleExchange sendsTo) {

    Pipeline {
        operators = List.copyOf(operators);
        after = Set.copyOf(after);
    }

    /** The exchanges whose sending or receiving side this pipeline runs. */
    List<ShuffleExchange> exchanges() {
        List<ShuffleExchange> exchanges = new java.util.ArrayList<>();
        if (sendsTo != null) {
            exchanges.add(sendsTo);
        }
        for (OperatorFactory operator : operators) {
            if (operator instanceof ShuffleExchange.ReceiveFactory receive) {
                exchanges.add(receive.exchange());
            }
        }
        return exchanges;
    }
}
