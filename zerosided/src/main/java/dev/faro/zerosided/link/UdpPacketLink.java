package dev.faro.zerosided.link;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link PacketLink} over a real UDP socket bound to 127.0.0.1 (never a wildcard), non-blocking; ports are UDP
 * ports. Loss and reordering are those of the host's loopback (rare: a full socket buffer), plus whatever a
 * {@link FaultyLink} around it injects.
 *
 * <p>Data path: allocation-free once every destination has been sent to once (destinations are cached by port).
 */
public final class UdpPacketLink implements PacketLink {

    /** Socket buffers: room for a few thousand MTU datagrams, so a briefly descheduled receiver loses none. */
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final DatagramChannel channel;
    private final int port;
    private final InetSocketAddress[] destinations = new InetSocketAddress[65536];
    private InetSocketAddress lastSource;
    private Selector selector; // opened on the first idle wait
    private long dropped;

    private UdpPacketLink(DatagramChannel channel, int port) {
        this.channel = channel;
        this.port = port;
    }

    /**
     * Opens a link on 127.0.0.1 and {@code port} (0: an ephemeral port).
     *
     * @throws FaroException NETWORK when the socket cannot be opened or bound
     */
    public static UdpPacketLink open(int port) {
        try {
            DatagramChannel channel = DatagramChannel.open();
            try {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
                channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
                channel.bind(new InetSocketAddress(LOOPBACK, port));
                channel.configureBlocking(false);
                return new UdpPacketLink(channel, ((InetSocketAddress) channel.getLocalAddress()).getPort());
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "cannot open a UDP socket on " + LOOPBACK.getHostAddress() + ":" + port + ": " + e.getMessage());
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void send(ByteBuffer buffer, int offset, int length, int destinationPort) {
        InetSocketAddress destination = destinations[destinationPort];
        if (destination == null) {
            destination = new InetSocketAddress(LOOPBACK, destinationPort);
            destinations[destinationPort] = destination;
        }
        int savedPosition = buffer.position();
        int savedLimit = buffer.limit();
        try {
            buffer.limit(offset + length).position(offset);
            if (channel.send(buffer, destination) == 0) {
                dropped++;
            }
        } catch (IOException e) {
            dropped++; // e.g. ICMP port unreachable from an earlier send: the network drops it
        } finally {
            buffer.limit(savedLimit).position(savedPosition);
        }
    }

    @Override
    public int receive(ByteBuffer buffer, int offset) {
        int savedPosition = buffer.position();
        int savedLimit = buffer.limit();
        try {
            buffer.limit(buffer.capacity()).position(offset);
            InetSocketAddress source = (InetSocketAddress) channel.receive(buffer);
            if (source == null) {
                return NOTHING;
            }
            lastSource = source;
            return buffer.position() - offset;
        } catch (IOException e) {
            return NOTHING; // a previous send's ICMP error surfaces here on some systems; nothing was received
        } finally {
            buffer.limit(savedLimit).position(savedPosition);
        }
    }

    /**
     * Blocks in a selector on the socket: the kernel wakes the owner when a datagram arrives. Not the data path (the
     * owner found no work); timeouts below a millisecond wait a millisecond at most.
     */
    @Override
    public void awaitDatagram(long timeoutNanos) {
        try {
            if (selector == null) {
                selector = Selector.open();
                channel.register(selector, SelectionKey.OP_READ);
            }
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos)));
            selector.selectedKeys().clear();
        } catch (IOException e) {
            LockSupport.parkNanos(timeoutNanos); // no selector: wait as a timer would
        }
    }

    @Override
    public int sourcePort() {
        return lastSource == null ? 0 : lastSource.getPort();
    }

    @Override
    public long droppedDatagrams() {
        return dropped;
    }

    @Override
    public void close() {
        try {
            if (selector != null) {
                selector.close();
            }
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
