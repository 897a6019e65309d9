/** Test-only task handlers, registered in {@code META-INF/services} of the test classes (so child JVMs see them). */
package dev.faro.cluster.testing;
