/**
 * Test support that other modules' tests share through the fabric's test-jar: network namespaces as test hosts come from
 * {@link dev.faro.fabric.netns.NetworkNamespaces}; here is what a test needs outside the JDK
 * ({@link dev.faro.fabric.testing.Requirement}, {@link dev.faro.fabric.testing.Requires},
 * {@link dev.faro.fabric.testing.Requirements}: skip with one loud line, or fail under {@code FARO_REQUIRE}).
 */
package dev.faro.fabric.testing;
