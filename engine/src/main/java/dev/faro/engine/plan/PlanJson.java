package dev.faro.engine.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Plans to JSON and back (plans travel to worker processes as JSON; never Java serialization). */
public final class PlanJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private PlanJson() {}

    public static String toJson(PlanNode plan) {
        try {
            return MAPPER.writerFor(PlanNode.class).writeValueAsString(plan);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the plan as JSON: " + e.getMessage(), e);
        }
    }

    /** Reads a plan; every node's constructor validates it again. */
    public static PlanNode fromJson(String json) {
        try {
            PlanNode plan = MAPPER.readValue(json, PlanNode.class);
            if (plan == null) { // the JSON literal null
                throw new IllegalArgumentException("not a valid plan: null");
            }
            return plan;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a valid plan: " + e.getOriginalMessage(), e);
        }
    }

    /** The shared mapper (thread-safe once configured). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
