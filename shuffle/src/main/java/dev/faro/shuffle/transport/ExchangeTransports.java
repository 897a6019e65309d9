package dev.faro.shuffle.transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Every exchange transport on the class path, by name: this module's {@link BuiltInTransports} first (the eight
 * designs, then TCP), then each other {@link TransportFactory} that {@link ServiceLoader} finds, in class-path order.
 * Names match ignoring case, spaces and the separators {@code / _ -} ("mesq_sr" is MESQ/SR), or by an alias.
 */
public final class ExchangeTransports {

    /** Canonical name to the factory that makes it, in report order; found once. */
    private static final Map<String, TransportFactory> BY_NAME = discover();
    /** Every name's and alias's {@link #key} to its canonical name; names win over aliases. */
    private static final Map<String, String> BY_KEY = keys(BY_NAME);

    private ExchangeTransports() {}

    /** Every transport's name, in report order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /**
     * The canonical name of the transport {@code text} names.
     *
     * @throws IllegalArgumentException naming every known transport, for a name none has
     */
    public static String resolve(String text) {
        String canonical = BY_KEY.get(key(text));
        if (canonical != null) {
            return canonical;
        }
        throw new IllegalArgumentException(
                "unknown exchange transport '" + text.strip() + "'; known: " + String.join(", ", names()));
    }

    /** {@link TransportFactory#unitsPerNode} of the transport {@code name} (any form {@link #resolve} takes). */
    public static int unitsPerNode(String name, int threads) {
        String canonical = resolve(name);
        return BY_NAME.get(canonical).unitsPerNode(canonical, threads);
    }

    /**
     * The transport {@code name} (any form {@link #resolve} takes) for one query at {@code node}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static ExchangeTransport create(String name, TransportNode node) {
        String canonical = resolve(name);
        return BY_NAME.get(canonical).create(canonical, node);
    }

    private static String key(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s/_-]", "");
    }

    private static Map<String, String> keys(Map<String, TransportFactory> byName) {
        Map<String, String> byKey = new HashMap<>();
        byName.keySet().forEach(name -> byKey.put(key(name), name));
        byName.forEach((name, factory) -> factory.aliases(name).forEach(alias -> byKey.putIfAbsent(key(alias), name)));
        return Map.copyOf(byKey);
    }

    private static Map<String, TransportFactory> discover() {
        List<TransportFactory> factories = new ArrayList<>();
        factories.add(new BuiltInTransports());
        for (TransportFactory factory : ServiceLoader.load(TransportFactory.class)) {
            if (!(factory instanceof BuiltInTransports)) {
                factories.add(factory);
            }
        }
        Map<String, TransportFactory> byName = new LinkedHashMap<>();
        Map<String, String> keys = new LinkedHashMap<>();
        for (TransportFactory factory : factories) {
            for (String name : factory.names()) {
                String clash = keys.putIfAbsent(key(name), name);
                if (clash != null) {
                    throw new IllegalStateException("two exchange transports are called '" + name + "' ('" + clash
                            + "' of " + byName.get(clash).getClass().getName() + " and "
                            + factory.getClass().getName()
                            + ")");
                }
                byName.put(name, factory);
            }
        }
        return byName;
    }
}
