/**
 * Authentication of Faro's TCP connections with a secret the nodes of a cluster share: the secret and its
 * HMAC-SHA256 proofs ({@link dev.faro.fabric.auth.SharedSecret}), the one mutual challenge–response
 * ({@link dev.faro.fabric.auth.ChallengeResponse}) that the cluster port, the TCP shuffle baseline and the {@code net}
 * provider's connections run before they act on a peer's bytes, and the rate-limited log of
 * the peers a listener refused ({@link dev.faro.fabric.auth.RefusalLog}). It lives in {@code fabric}, the lowest
 * module, so that every layer above uses this one implementation; it knows nothing of the messages that carry the
 * nonces and proofs, which are each protocol's own.
 */
package dev.faro.fabric.auth;
