package dev.faro.cluster.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Peer text made safe for one log line: no raw control characters, no new lines, a bounded length. */
class PeerTextTest {

    @Test
    void controlCharactersBecomeVisibleEscapes() {
        String forged = "\u001b[2J\u001b[31mQ1 OK\nQ3 OK\r\n\u0007\u0000\u009b\u202e";

        String safe = PeerText.sanitize(forged);

        assertThat(safe).isEqualTo("\\x1b[2J\\x1b[31mQ1 OK\\nQ3 OK\\r\\n\\x07\\x00\\x9b\\u202e");
        assertThat(safe.chars()).noneMatch(c -> Character.isISOControl(c));
    }

    @Test
    void ordinaryTextIsKeptAndBackslashesAreEscaped() {
        assertThat(PeerText.sanitize("unknown message type 'HELLO' from host-ä \\x1b"))
                .isEqualTo("unknown message type 'HELLO' from host-ä \\\\x1b");
    }

    @Test
    void longTextIsCutWithACountOfWhatWasLeftOut() {
        String safe = PeerText.sanitize("x".repeat(10_000), 50);

        assertThat(safe).startsWith("x".repeat(50)).endsWith("...(9950 more chars)");
    }

    @Test
    void nullIsShownAsNull() {
        assertThat(PeerText.sanitize(null)).isEqualTo("null");
    }
}
