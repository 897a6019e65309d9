/**
 * Scalar expressions: immutable, JSON-serializable records under the sealed {@link
 * dev.faro.engine.expression.Expression} (built with {@link dev.faro.engine.expression.Expressions}), their typing
 * ({@link dev.faro.engine.expression.ExpressionTypes}), and vectorized evaluation: {@link
 * dev.faro.engine.expression.ExpressionCompiler} turns an expression and an input schema into an {@link
 * dev.faro.engine.expression.Evaluator} producing a vector per batch, {@link
 * dev.faro.engine.expression.FilterEvaluator} a selection, narrowed by one selection kernel per AND term
 * (allocation-free except for a term no kernel covers, which runs through its evaluator). Evaluation allocates result
 * arrays per batch, never per row (except the strings SUBSTRING makes).
 */
package dev.faro.engine.expression;
