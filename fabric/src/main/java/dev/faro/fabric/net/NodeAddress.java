package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Where a node listens: its advertised IP address, its TCP port (RC) and its UDP port (UD). Part of every queue-pair
 * address and remote key of the node.
 *
 * <pre>
 *  bytes (inside an address or key, little-endian):
 *   tcpPort (2) | udpPort (2) | ipLength (1: 4 or 16) | ip (ipLength)
 * </pre>
 */
record NodeAddress(InetAddress ip, int tcpPort, int udpPort) {

    NodeAddress {
        FaroException.checkArgument(ip != null, "ip is null");
        FaroException.checkArgument(
                tcpPort > 0 && tcpPort <= 65535 && udpPort > 0 && udpPort <= 65535,
                "ports must be within [1, 65535]: %d, %d",
                tcpPort,
                udpPort);
    }

    int encodedLength() {
        return 5 + ip.getAddress().length;
    }

    void encode(ByteBuffer buffer) {
        byte[] raw = ip.getAddress();
        buffer.putShort((short) tcpPort)
                .putShort((short) udpPort)
                .put((byte) raw.length)
                .put(raw);
    }

    static NodeAddress decode(ByteBuffer buffer, String what) {
        FaroException.checkArgument(buffer.remaining() >= 5, "%s is truncated", what);
        int tcpPort = Short.toUnsignedInt(buffer.getShort());
        int udpPort = Short.toUnsignedInt(buffer.getShort());
        int length = buffer.get();
        FaroException.checkArgument(
                (length == 4 || length == 16) && buffer.remaining() == length, "%s has a bad IP length", what);
        byte[] raw = new byte[length];
        buffer.get(raw);
        FaroException.checkArgument(tcpPort > 0 && udpPort > 0, "%s has a zero port", what);
        try {
            return new NodeAddress(InetAddress.getByAddress(raw), tcpPort, udpPort);
        } catch (java.net.UnknownHostException e) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT, what + " has a bad IP address", e);
        }
    }

    InetSocketAddress tcp() {
        return new InetSocketAddress(ip, tcpPort);
    }

    InetSocketAddress udp() {
        return new InetSocketAddress(ip, udpPort);
    }

    @Override
    public String toString() {
        return (ip.getAddress().length == 16 ? "[" + ip.getHostAddress() + "]" : ip.getHostAddress()) + ":" + tcpPort
                + (udpPort != tcpPort ? "/udp:" + udpPort : "");
    }
}
