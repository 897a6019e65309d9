package dev.faro.txn.tpcc;

/** The five TPC-C transactions and their share of the standard mix (TPC-C §5.2.3, the minimum percentages). */
public enum TpccTransactionType {
    NEW_ORDER(45),
    PAYMENT(43),
    ORDER_STATUS(4),
    DELIVERY(4),
    STOCK_LEVEL(4);

    private final int percent;

    TpccTransactionType(int percent) {
        this.percent = percent;
    }

    /** The share of the mix, in percent (the five add up to 100). */
    public int percent() {
        return percent;
    }
}
