package dev.faro.zerosided.link;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link PacketLink} between processes of one host through shared memory: each port is a file
 * {@code zs-link-<port>} in a common directory holding a many-sender, one-receiver ring of datagram slots
 * ({@link ShmPacketLinkDescriptor}). A send copies the datagram into a slot of the destination's ring (one CAS to
 * claim it, one release store to publish it); a receive copies it out of this link's own ring. No system call per
 * datagram, which is what the UDP link pays twice per hop (about 20 µs of CPU per 1 KiB datagram measured by JFR),
 * while the datagrams stay byte-exact and unreliable: a full ring drops, a {@link FaultyLink} around it injects loss,
 * duplication, reordering and delay as around UDP.
 *
 * <p>Ports are allocated by creating the file exclusively (1 to 65535), so links of any process using the same
 * directory address each other by port alone. A file whose owner process is gone is removed when a new link finds
 * it. A link marks its file closed, unmaps it and deletes it on close; a sender that sees a closed destination drops
 * the datagram and unmaps it.
 *
 * <p>Owned by one thread, as every link. Data path: allocation-free once every destination has been sent to once
 * (destinations are mapped on first use, and the table of them grows to the highest port).
 */
public final class ShmPacketLink implements PacketLink {

    /** Slots of a port's ring: a few thousand KiB of datagrams, so a briefly descheduled receiver loses none. */
    public static final int SLOTS = 2048;

    /** The largest datagram. */
    public static final int MAX_DATAGRAM_BYTES = InProcessNetwork.SLOT_BYTES;

    private static final int FIRST_PORT = 1;
    private static final int LAST_PORT = 65_535;
    private static final String PREFIX = "zs-link-";
    private static final long IDLE_PARK_NS = 20_000;

    private final Path directory;
    private final int port;
    private final Path file;
    private final Arena arena;
    private final MemorySegment ring;
    private final ByteBuffer ringBytes;
    private final int slotLength;

    // Destinations by port, grown to the highest port sent to (ports are handed out from 1 up, so they stay small).
    private Arena[] destinationArenas = new Arena[64];
    private MemorySegment[] destinations = new MemorySegment[64];
    private ByteBuffer[] destinationBytes = new ByteBuffer[64];

    /** The next position to take from this link's ring; receiving thread only. */
    private long head;

    private int lastSource;
    private long dropped;
    private boolean closed;

    private ShmPacketLink(Path directory, int port, Path file, Arena arena, MemorySegment ring, int slotLength) {
        this.directory = directory;
        this.port = port;
        this.file = file;
        this.arena = arena;
        this.ring = ring;
        this.ringBytes = ring.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.slotLength = slotLength;
    }

    /**
     * The directory links of this user share by default: {@code /dev/shm/faro-zerosided-<user>} when {@code /dev/shm}
     * exists, else under {@code java.io.tmpdir}.
     */
    public static Path defaultDirectory() {
        String name = "faro-zerosided-" + System.getProperty("user.name", "user");
        Path devShm = Path.of("/dev/shm");
        return Files.isDirectory(devShm) && Files.isWritable(devShm)
                ? devShm.resolve(name)
                : Path.of(System.getProperty("java.io.tmpdir")).resolve(name);
    }

    /**
     * Opens a link on a fresh port of {@code directory} (created {@code 0700} if missing).
     *
     * @throws FaroException IO when the directory or the file cannot be made, or every port is taken
     */
    public static ShmPacketLink open(Path directory) {
        try {
            if (!Files.isDirectory(directory)) {
                try {
                    Files.createDirectories(
                            directory,
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (FileAlreadyExistsException e) {
                    // made by another process at the same moment
                }
            }
            int slotLength = ShmPacketLinkDescriptor.slotLength(MAX_DATAGRAM_BYTES);
            long length = ShmPacketLinkDescriptor.fileLength(SLOTS, slotLength);
            for (int port = FIRST_PORT; port <= LAST_PORT; port++) {
                Path file = directory.resolve(PREFIX + port);
                FileChannel channel;
                try {
                    channel = FileChannel.open(
                            file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    if (removeIfStale(file)) {
                        port--; // try the same port again
                    }
                    continue;
                }
                Arena arena = Arena.ofShared();
                try (channel) {
                    MemorySegment ring = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                    ShmPacketLinkDescriptor.initialize(
                            ring, SLOTS, slotLength, ProcessHandle.current().pid());
                    return new ShmPacketLink(directory, port, file, arena, ring, slotLength);
                } catch (IOException | RuntimeException e) {
                    arena.close();
                    Files.deleteIfExists(file);
                    throw e;
                }
            }
            throw new FaroException(
                    FaroException.Category.IO,
                    "every shared-memory packet port in " + directory + " is taken (" + LAST_PORT + " links)");
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "cannot open a shared-memory packet link in " + directory + ": " + e.getMessage());
        }
    }

    /** Removes {@code file} if the process that made it is gone; true if removed. */
    private static boolean removeIfStale(Path file) throws IOException {
        ByteBuffer header =
                ByteBuffer.allocate(ShmPacketLinkDescriptor.SLOTS_OFFSET).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // read the header
            }
        } catch (NoSuchFileException e) {
            return true; // removed meanwhile: the port is free again
        }
        if (header.position() < ShmPacketLinkDescriptor.SLOTS_OFFSET
                || header.getInt(ShmPacketLinkDescriptor.MAGIC_OFFSET) != ShmPacketLinkDescriptor.MAGIC) {
            return false; // being made right now, or not ours
        }
        long pid = header.getLong(ShmPacketLinkDescriptor.OWNER_PID_OFFSET);
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        return Files.deleteIfExists(file);
    }

    @Override
    public int port() {
        return port;
    }

    /** The directory this link's port lives in. */
    public Path directory() {
        return directory;
    }

    @Override
    public void send(ByteBuffer buffer, int offset, int length, int destinationPort) {
        if (destinationPort < FIRST_PORT || destinationPort > LAST_PORT || length > MAX_DATAGRAM_BYTES) {
            dropped++;
            return;
        }
        MemorySegment destination = destinationPort < destinations.length ? destinations[destinationPort] : null;
        if (destination == null) {
            destination = map(destinationPort);
            if (destination == null) {
                dropped++;
                return;
            }
        }
        if (ShmPacketLinkDescriptor.closed(destination)) {
            unmap(destinationPort);
            dropped++;
            return;
        }
        int slots = SLOTS;
        int slotBytes = slotLength;
        long position;
        long slot;
        while (true) {
            position = (long) ShmPacketLinkDescriptor.LONG_HANDLE.getVolatile(
                    destination, (long) ShmPacketLinkDescriptor.TAIL_OFFSET);
            slot = ShmPacketLinkDescriptor.slotOffset(position, slots, slotBytes);
            long sequence = (long) ShmPacketLinkDescriptor.LONG_HANDLE.getAcquire(
                    destination, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET);
            long difference = sequence - position;
            if (difference == 0) {
                if (ShmPacketLinkDescriptor.LONG_HANDLE.compareAndSet(
                        destination, (long) ShmPacketLinkDescriptor.TAIL_OFFSET, position, position + 1)) {
                    break;
                }
            } else if (difference < 0) {
                dropped++; // full: the receiver does not keep up
                return;
            } else {
                Thread.onSpinWait(); // another sender claimed this position: read the tail again
            }
        }
        destinationBytes[destinationPort].put(
                (int) slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_OFFSET, buffer, offset, length);
        ShmPacketLinkDescriptor.INT_HANDLE.set(
                destination, slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_LENGTH_OFFSET, length);
        ShmPacketLinkDescriptor.INT_HANDLE.set(destination, slot + ShmPacketLinkDescriptor.SLOT_SOURCE_OFFSET, port);
        ShmPacketLinkDescriptor.LONG_HANDLE.setRelease(
                destination, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET, position + 1);
    }

    @Override
    public int receive(ByteBuffer buffer, int offset) {
        long slot = ShmPacketLinkDescriptor.slotOffset(head, SLOTS, slotLength);
        long sequence = (long) ShmPacketLinkDescriptor.LONG_HANDLE.getAcquire(
                ring, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET);
        if (sequence != head + 1) {
            return NOTHING;
        }
        int length = (int) ShmPacketLinkDescriptor.INT_HANDLE.get(
                ring, slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_LENGTH_OFFSET);
        lastSource =
                (int) ShmPacketLinkDescriptor.INT_HANDLE.get(ring, slot + ShmPacketLinkDescriptor.SLOT_SOURCE_OFFSET);
        int copied = Math.min(length, buffer.capacity() - offset); // a datagram longer than the buffer is truncated
        buffer.put(offset, ringBytes, (int) slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_OFFSET, copied);
        ShmPacketLinkDescriptor.LONG_HANDLE.setRelease(
                ring, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET, head + SLOTS);
        head++;
        return copied;
    }

    /**
     * Parks briefly (processes share no wake-up primitive, as on the {@code shm} fabric), unless a datagram is
     * already waiting.
     */
    @Override
    public void awaitDatagram(long timeoutNanos) {
        long slot = ShmPacketLinkDescriptor.slotOffset(head, SLOTS, slotLength);
        long sequence = (long) ShmPacketLinkDescriptor.LONG_HANDLE.getAcquire(
                ring, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET);
        if (sequence != head + 1) {
            LockSupport.parkNanos(Math.min(timeoutNanos, IDLE_PARK_NS));
        }
    }

    @Override
    public int sourcePort() {
        return lastSource;
    }

    @Override
    public long droppedDatagrams() {
        return dropped;
    }

    /** Maps port {@code destinationPort}'s ring, or returns null when it does not exist or is not ready. */
    private MemorySegment map(int destinationPort) {
        Path destinationFile = directory.resolve(PREFIX + destinationPort);
        Arena destinationArena = Arena.ofShared();
        try (FileChannel channel =
                FileChannel.open(destinationFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size < ShmPacketLinkDescriptor.HEADER_LENGTH) {
                destinationArena.close();
                return null;
            }
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, destinationArena);
            if (!ShmPacketLinkDescriptor.ready(segment)
                    || ShmPacketLinkDescriptor.slots(segment) != SLOTS
                    || ShmPacketLinkDescriptor.slotLength(segment) != slotLength
                    || size != ShmPacketLinkDescriptor.fileLength(SLOTS, slotLength)) {
                destinationArena.close();
                return null;
            }
            if (destinationPort >= destinations.length) {
                int length = Math.max(destinationPort + 1, 2 * destinations.length);
                destinationArenas = java.util.Arrays.copyOf(destinationArenas, length);
                destinations = java.util.Arrays.copyOf(destinations, length);
                destinationBytes = java.util.Arrays.copyOf(destinationBytes, length);
            }
            destinationArenas[destinationPort] = destinationArena;
            destinations[destinationPort] = segment;
            destinationBytes[destinationPort] = segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            return segment;
        } catch (IOException e) {
            destinationArena.close();
            return null; // no such port: the network drops it
        }
    }

    private void unmap(int destinationPort) {
        destinations[destinationPort] = null;
        destinationBytes[destinationPort] = null;
        Arena destinationArena = destinationArenas[destinationPort];
        destinationArenas[destinationPort] = null;
        if (destinationArena != null) {
            destinationArena.close();
        }
    }

    /** Idempotent: the owner of a NIC or a switch and the NIC or switch itself may both close it. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShmPacketLinkDescriptor.markClosed(ring);
        for (int destinationPort = FIRST_PORT; destinationPort < destinations.length; destinationPort++) {
            if (destinationArenas[destinationPort] != null) {
                unmap(destinationPort);
            }
        }
        arena.close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
