/** The ETH19 join inputs: the 16-byte tuple layout and the thesis's relations (uniform 1:N, selectivity, Zipf). */
package dev.faro.join.workload;
