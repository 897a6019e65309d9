package dev.faro.fabric.testing;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit side of {@link Requires}: enables a test whose requirements are met, disables (skips) one whose missing
 * requirement is optional, and fails one whose missing requirement {@code FARO_REQUIRE} names, through
 * {@link Requirements#check}.
 */
public final class RequirementCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Requires> requires = AnnotationSupport.findAnnotation(context.getElement(), Requires.class);
        if (requires.isEmpty()) {
            return ConditionEvaluationResult.enabled("no requirements");
        }
        String test = context.getRequiredTestClass().getSimpleName()
                + context.getElement()
                        .filter(Method.class::isInstance)
                        .map(m -> "." + ((Method) m).getName())
                        .orElse("");
        for (Requirement requirement : requires.get().value()) {
            String missing = Requirements.check(requirement, test);
            if (missing != null) {
                return ConditionEvaluationResult.disabled(missing);
            }
        }
        return ConditionEvaluationResult.enabled("requirements met");
    }
}
