/** The data movement of the SHUFFLE and RECEIVE operators (TODS19 Algorithms 1 and 2) over endpoints. */
package dev.faro.shuffle.operator;
