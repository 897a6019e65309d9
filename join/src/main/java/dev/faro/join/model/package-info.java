/** The thesis's analytical models of the distributed joins (§3.3): lower bounds per phase from measured rates. */
package dev.faro.join.model;
