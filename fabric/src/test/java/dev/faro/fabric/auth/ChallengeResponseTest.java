package dev.faro.fabric.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The challenge–response's proofs: they verify only with the same secret, protocol, role, nonces and binding. */
class ChallengeResponseTest {

    private static final byte[] BINDING = "exchange q1-x0".getBytes(StandardCharsets.UTF_8);

    private final ChallengeResponse proofs = new ChallengeResponse(SharedSecret.of("right", "test"), "faro-test/1");
    private final byte[] challenge = ChallengeResponse.nonce();
    private final byte[] response = ChallengeResponse.nonce();

    @Test
    void bothSidesVerifyEachOtherWithTheSameSecret() {
        ChallengeResponse other = new ChallengeResponse(SharedSecret.of("right", "the other side"), "faro-test/1");
        assertThat(proofs.verifyResponder(
                        challenge, response, BINDING, other.responderProof(challenge, response, BINDING)))
                .isTrue();
        assertThat(other.verifyChallenger(
                        challenge, response, BINDING, proofs.challengerProof(challenge, response, BINDING)))
                .isTrue();
    }

    @Test
    void aWrongSecretProtocolRoleOrBindingFails() {
        byte[] answer = proofs.responderProof(challenge, response, BINDING);
        ChallengeResponse wrongSecret = new ChallengeResponse(SharedSecret.of("wrong", "test"), "faro-test/1");
        ChallengeResponse otherProtocol = new ChallengeResponse(SharedSecret.of("right", "test"), "faro-other/1");
        assertThat(wrongSecret.verifyResponder(challenge, response, BINDING, answer))
                .isFalse();
        assertThat(otherProtocol.verifyResponder(challenge, response, BINDING, answer))
                .isFalse();
        assertThat(proofs.verifyChallenger(challenge, response, BINDING, answer))
                .as("the other role")
                .isFalse();
        assertThat(proofs.verifyResponder(
                        challenge, response, "exchange q1-x1".getBytes(StandardCharsets.UTF_8), answer))
                .as("another binding")
                .isFalse();
        assertThat(proofs.verifyResponder(challenge, response, BINDING, null))
                .as("no proof")
                .isFalse();
        assertThat(proofs.verifyResponder(challenge, response, BINDING, new byte[3]))
                .as("a short proof")
                .isFalse();
    }

    @Test
    void aRecordedAnswerDoesNotVerifyAgainstAFreshChallenge() {
        byte[] recorded = proofs.responderProof(challenge, response, BINDING);
        assertThat(proofs.verifyResponder(ChallengeResponse.nonce(), response, BINDING, recorded))
                .isFalse();
        assertThat(ChallengeResponse.nonce())
                .hasSize(ChallengeResponse.NONCE_LENGTH)
                .isNotEqualTo(challenge);
        assertThat(recorded).hasSize(ChallengeResponse.PROOF_LENGTH);
    }

    @Test
    void theSecretNeverShowsInText() {
        SharedSecret secret = SharedSecret.of("s3cret", "the test");
        assertThat(secret.toString()).doesNotContain("s3cret").contains("the test");
        assertThat(new ChallengeResponse(secret, "faro-test/1").toString()).doesNotContain("s3cret");
    }
}
