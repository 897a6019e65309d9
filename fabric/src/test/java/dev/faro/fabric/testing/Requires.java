package dev.faro.fabric.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class or method that needs something outside the JDK. Where a requirement is missing, the test is skipped
 * with one loud line naming what is missing and how to get it, unless {@code FARO_REQUIRE} names it: then it fails
 * with that line ({@link Requirements}). Nothing of the class runs when it is skipped or failed, not even its
 * {@code @BeforeAll}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RequirementCondition.class)
public @interface Requires {

    /** Everything the test needs. */
    Requirement[] value();
}
