package dev.faro.zerosided.link;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link PacketLink} between processes of one host through shared memory: each port is a file
 * {@code zs-link-<port>} in a common directory holding a many-sender, one-receiver ring of datagram slots
 * ({@link ShmPacketLinkDescriptor}). A send copies the datagram into a slot of the destination's ring (one CAS to
 * claim it, one volatile store to publish it); a receive copies it out of this link's own ring. No system call per
 * datagram, which is what the UDP link pays twice per hop (about 20 µs of CPU per 1 KiB datagram measured by JFR),
 * except one to wake a receiver that sleeps: an idle receiver sleeps on a futex word in its ring's header, which the
 * first sender to find it asleep wakes ({@link #awaitDatagram}). The datagrams stay byte-exact and unreliable: a full
 * ring drops, a {@link FaultyLink} around it injects loss,
 * duplication, reordering and delay as around UDP.
 *
 * <p>A port is its owner's process id and the link's index in that process ({@code pid << 9 | index}), so links of
 * any process using the same directory address each other by port alone, and no two live processes ever compete for
 * a name. A process's first link, and its last link when it closes, remove the files of processes that are gone (a
 * killed worker's); the last one also removes the directory when nothing is left in it. A link marks its file closed,
 * unmaps it and deletes it on close; a sender that sees a closed destination drops the datagram and
 * unmaps it.
 *
 * <p>Owned by one thread, as every link. Data path: allocation-free once every destination has been sent to once
 * (destinations are mapped on first use, into a short list searched linearly).
 */
public final class ShmPacketLink implements PacketLink {

    /** Slots of a port's ring: a few thousand KiB of datagrams, so a briefly descheduled receiver loses none. */
    public static final int SLOTS = 2048;

    /** The largest datagram. */
    public static final int MAX_DATAGRAM_BYTES = InProcessNetwork.SLOT_BYTES;

    /** A port is the owner's process id shifted left by this, plus the link's index in its process (1 to 511). */
    static final int INDEX_BITS = 9;

    private static final int MAX_INDEX = (1 << INDEX_BITS) - 1;
    private static final String PREFIX = "zs-link-";
    private static final long IDLE_PARK_NS = 20_000;

    /** Indexes of this process's open links; guarded by itself. */
    private static final BitSet LIVE_INDEXES = new BitSet();

    /** Directories this process has swept of dead processes' files; guarded by {@link #LIVE_INDEXES}. */
    private static final Set<Path> SWEPT = new HashSet<>();

    private final Path directory;
    private final int port;
    private final Path file;
    private final Arena arena;
    private final MemorySegment ring;
    private final ByteBuffer ringBytes;
    private final int slotLength;

    // Destinations mapped so far: a short list searched linearly (a link talks to a handful of ports).
    private int[] destinationPorts = new int[8];
    private Arena[] destinationArenas = new Arena[8];
    private MemorySegment[] destinations = new MemorySegment[8];
    private ByteBuffer[] destinationBytes = new ByteBuffer[8];
    private int destinationCount;

    /** The next position to take from this link's ring; receiving thread only. */
    private long head;

    /** The futex wait's timeout, a {@code struct timespec}; receiving thread only. */
    private final MemorySegment timespec;

    /** Wake-ups held back in a burst ({@link #beginBurst()}): futex word addresses; sending thread only. */
    private final long[] heldWakeUpWords = new long[16];

    private int heldWakeUps;
    private boolean bursting;
    private int lastSource;
    private long dropped;
    private long sleeps;
    private long wakeUps;
    private boolean closed;

    private ShmPacketLink(Path directory, int port, Path file, Arena arena, MemorySegment ring, int slotLength) {
        this.directory = directory;
        this.port = port;
        this.file = file;
        this.arena = arena;
        this.ring = ring;
        this.ringBytes = ring.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.slotLength = slotLength;
        this.timespec = arena.allocate(SharedFutex.TIMESPEC_LENGTH, Long.BYTES);
        // bind both futex calls now, not on the first idle wait or wake-up of a timed run: a wake-up with nobody
        // asleep, and a wait for a value the word does not hold (it returns at once)
        long word = ring.address() + ShmPacketLinkDescriptor.WAITING_OFFSET;
        SharedFutex.wake(word, 1);
        SharedFutex.await(word, 1, 0, timespec);
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
        for (int attempt = 1; ; attempt++) {
            try {
                return openIn(directory);
            } catch (NoSuchFileException e) {
                // another process's last link removed the (then empty) directory between our check and our file
                if (attempt == 3) {
                    throw new FaroException(
                            FaroException.Category.IO,
                            "cannot open a shared-memory packet link in " + directory + ": " + e.getMessage());
                }
            }
        }
    }

    private static ShmPacketLink openIn(Path directory) throws NoSuchFileException {
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
            long pid = ProcessHandle.current().pid();
            if (pid > (Integer.MAX_VALUE >> INDEX_BITS)) {
                throw new FaroException(FaroException.Category.IO, "process id " + pid + " does not fit a port");
            }
            int index = claimIndex(directory);
            int port = (int) (pid << INDEX_BITS) | index;
            Path file = directory.resolve(PREFIX + port);
            try {
                // a file of this name is a dead process's (one with this process's id): no live process can own it
                Files.deleteIfExists(file);
                FileChannel channel = FileChannel.open(
                        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofShared();
                try (channel) {
                    MemorySegment ring = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                    ShmPacketLinkDescriptor.initialize(ring, SLOTS, slotLength, pid);
                    return new ShmPacketLink(directory, port, file, arena, ring, slotLength);
                } catch (IOException | RuntimeException e) {
                    arena.close();
                    Files.deleteIfExists(file);
                    throw e;
                }
            } catch (IOException | RuntimeException e) {
                releaseIndex(index, directory);
                throw e;
            }
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "cannot open a shared-memory packet link in " + directory + ": " + e.getMessage());
        }
    }

    /** Claims a free index of this process, sweeping {@code directory} of dead processes' files first (once). */
    private static int claimIndex(Path directory) throws IOException {
        synchronized (LIVE_INDEXES) {
            if (SWEPT.add(directory)) {
                sweep(directory);
            }
            int index = LIVE_INDEXES.nextClearBit(1);
            if (index > MAX_INDEX) {
                throw new FaroException(
                        FaroException.Category.IO,
                        "this process has " + MAX_INDEX + " shared-memory packet links open");
            }
            LIVE_INDEXES.set(index);
            return index;
        }
    }

    /**
     * Frees {@code index}; when it was this process's last link, sweeps {@code directory} of dead processes' files (a
     * killed worker's, which nothing else would remove until the next run) and removes the directory if that left it
     * empty. Best effort: a failure to clean up is not the caller's failure.
     */
    private static void releaseIndex(int index, Path directory) {
        synchronized (LIVE_INDEXES) {
            LIVE_INDEXES.clear(index);
            if (!LIVE_INDEXES.isEmpty()) {
                return;
            }
            try {
                sweep(directory);
                Files.deleteIfExists(directory);
            } catch (DirectoryNotEmptyException e) {
                // another live process's links are still there
            } catch (IOException | UncheckedIOException e) {
                // gone already, or not ours to clean
            }
            SWEPT.remove(directory);
        }
    }

    /**
     * Removes the files of processes that are gone: a port names its owner's process id, so a file whose process is
     * not alive is garbage, and only a process with that id (i.e. none now) could make a file of that name.
     */
    private static void sweep(Path directory) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, PREFIX + "*")) {
            for (Path candidate : files) {
                long owner;
                try {
                    owner = Integer.parseInt(candidate.getFileName().toString().substring(PREFIX.length()))
                            >>> INDEX_BITS;
                } catch (NumberFormatException e) {
                    continue; // not a port file
                }
                if (owner != ProcessHandle.current().pid()
                        && !ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    Files.deleteIfExists(candidate);
                }
            }
        }
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
        if (destinationPort <= 0 || length > MAX_DATAGRAM_BYTES) {
            dropped++;
            return;
        }
        int at = find(destinationPort);
        if (at < 0) {
            at = map(destinationPort);
            if (at < 0) {
                dropped++;
                return;
            }
        }
        MemorySegment destination = destinations[at];
        if (ShmPacketLinkDescriptor.closed(destination)) {
            unmap(at);
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
        destinationBytes[at].put((int) slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_OFFSET, buffer, offset, length);
        ShmPacketLinkDescriptor.INT_HANDLE.set(
                destination, slot + ShmPacketLinkDescriptor.SLOT_DATAGRAM_LENGTH_OFFSET, length);
        ShmPacketLinkDescriptor.INT_HANDLE.set(destination, slot + ShmPacketLinkDescriptor.SLOT_SOURCE_OFFSET, port);
        // publish, then look for a sleeping receiver: both volatile (see awaitDatagram for why)
        ShmPacketLinkDescriptor.LONG_HANDLE.setVolatile(
                destination, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET, position + 1);
        if ((int) ShmPacketLinkDescriptor.INT_HANDLE.getVolatile(
                                destination, (long) ShmPacketLinkDescriptor.WAITING_OFFSET)
                        != 0
                && ShmPacketLinkDescriptor.INT_HANDLE.compareAndSet(
                        destination, (long) ShmPacketLinkDescriptor.WAITING_OFFSET, 1, 0)) {
            long word = destination.address() + ShmPacketLinkDescriptor.WAITING_OFFSET;
            if (bursting && heldWakeUps < heldWakeUpWords.length) {
                heldWakeUpWords[heldWakeUps++] = word; // this send won the CAS: no other send holds the same sleep
            } else {
                wake(word);
            }
        }
    }

    private void wake(long word) {
        SharedFutex.wake(word, 1);
        wakeUps++;
    }

    @Override
    public void beginBurst() {
        bursting = true;
    }

    /**
     * Wakes the receivers this burst's sends found asleep. Their rings were unmapped in the meantime only if their
     * owners closed them (a send to a closed port unmaps it): a wake-up on an address no longer mapped fails
     * harmlessly in the kernel ({@code EFAULT}) or wakes nobody.
     */
    @Override
    public void endBurst() {
        bursting = false;
        for (int i = 0; i < heldWakeUps; i++) {
            wake(heldWakeUpWords[i]);
        }
        heldWakeUps = 0;
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
     * Sleeps until a sender publishes a datagram in this link's ring (it wakes this thread through the ring's
     * {@code waiting} word, a futex shared by the processes that map the file) or about {@code timeoutNanos} passed,
     * unless a datagram is already waiting. Without the futex call ({@link SharedFutex#available()}) it parks briefly
     * instead, as before the ring had a waiting word. The owner spins before it calls this ({@code AgentRunner}).
     *
     * <p>No wake-up is lost. The receiver stores {@code waiting = 1}, then loads the next slot's sequence; a sender
     * stores the sequence (publish), then loads {@code waiting}. All four accesses are volatile (sequentially
     * consistent: on x86-64 the stores are locked or fenced, on AArch64 {@code stlr}/{@code ldar}), so they occur in
     * one total order that keeps each thread's program order, and in it one of the two stores comes first: either
     * the receiver's load sees the datagram (and it does not sleep) or the sender's load sees {@code waiting = 1} (and
     * it wakes the receiver). The wake-up cannot fall between the receiver's check and its sleep either: the sender
     * first takes {@code waiting} from 1 to 0 (CAS: one waker per sleep), and the kernel puts the receiver to sleep
     * only if the word still holds 1, comparing and queueing atomically; if the CAS came first the receiver returns
     * at once. The receiver clears the word itself when it wakes for another reason (timeout, signal), so a sender
     * that comes later makes no system call; a sender whose CAS then fails has nobody to wake.
     */
    @Override
    public void awaitDatagram(long timeoutNanos) {
        if (datagramWaiting()) {
            return;
        }
        if (!SharedFutex.available()) {
            LockSupport.parkNanos(Math.min(timeoutNanos, IDLE_PARK_NS));
            return;
        }
        ShmPacketLinkDescriptor.INT_HANDLE.setVolatile(ring, (long) ShmPacketLinkDescriptor.WAITING_OFFSET, 1);
        if (!datagramWaiting()) {
            sleeps++;
            SharedFutex.await(ring.address() + ShmPacketLinkDescriptor.WAITING_OFFSET, 1, timeoutNanos, timespec);
        }
        ShmPacketLinkDescriptor.INT_HANDLE.setOpaque(ring, (long) ShmPacketLinkDescriptor.WAITING_OFFSET, 0);
    }

    /** Whether the next slot of this link's ring is published (a volatile load: see {@link #awaitDatagram}). */
    private boolean datagramWaiting() {
        long slot = ShmPacketLinkDescriptor.slotOffset(head, SLOTS, slotLength);
        return (long) ShmPacketLinkDescriptor.LONG_HANDLE.getVolatile(
                        ring, slot + ShmPacketLinkDescriptor.SLOT_SEQUENCE_OFFSET)
                == head + 1;
    }

    /** Whether this link's receiver has said it sleeps (or is about to); any thread, for tests. */
    boolean receiverWaiting() {
        return (int) ShmPacketLinkDescriptor.INT_HANDLE.getVolatile(ring, (long) ShmPacketLinkDescriptor.WAITING_OFFSET)
                != 0;
    }

    /** How often {@link #awaitDatagram} went to sleep on the futex so far; the receiving thread's count. */
    public long sleeps() {
        return sleeps;
    }

    /** How often a send woke a sleeping receiver so far (one system call each); the sending thread's count. */
    public long wakeUps() {
        return wakeUps;
    }

    @Override
    public int sourcePort() {
        return lastSource;
    }

    @Override
    public long droppedDatagrams() {
        return dropped;
    }

    /** The index of {@code destinationPort} among the mapped destinations, or -1. */
    private int find(int destinationPort) {
        for (int i = 0; i < destinationCount; i++) {
            if (destinationPorts[i] == destinationPort) {
                return i;
            }
        }
        return -1;
    }

    /** Maps port {@code destinationPort}'s ring and returns its index, or -1 when it does not exist or is not ready. */
    private int map(int destinationPort) {
        Path destinationFile = directory.resolve(PREFIX + destinationPort);
        Arena destinationArena = Arena.ofShared();
        try (FileChannel channel =
                FileChannel.open(destinationFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size != ShmPacketLinkDescriptor.fileLength(SLOTS, slotLength)) {
                destinationArena.close();
                return -1; // not (yet) a ring of this shape
            }
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, destinationArena);
            if (!ShmPacketLinkDescriptor.ready(segment)
                    || ShmPacketLinkDescriptor.slots(segment) != SLOTS
                    || ShmPacketLinkDescriptor.slotLength(segment) != slotLength) {
                destinationArena.close();
                return -1;
            }
            if (destinationCount == destinations.length) {
                int grown = 2 * destinationCount;
                destinationPorts = Arrays.copyOf(destinationPorts, grown);
                destinationArenas = Arrays.copyOf(destinationArenas, grown);
                destinations = Arrays.copyOf(destinations, grown);
                destinationBytes = Arrays.copyOf(destinationBytes, grown);
            }
            int at = destinationCount++;
            destinationPorts[at] = destinationPort;
            destinationArenas[at] = destinationArena;
            destinations[at] = segment;
            destinationBytes[at] = segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            return at;
        } catch (IOException e) {
            destinationArena.close();
            return -1; // no such port: the network drops it
        }
    }

    /** Unmaps the destination at {@code at} (its owner closed it); the last one takes its place. */
    private void unmap(int at) {
        Arena destinationArena = destinationArenas[at];
        int last = --destinationCount;
        destinationPorts[at] = destinationPorts[last];
        destinationArenas[at] = destinationArenas[last];
        destinations[at] = destinations[last];
        destinationBytes[at] = destinationBytes[last];
        destinationArenas[last] = null;
        destinations[last] = null;
        destinationBytes[last] = null;
        destinationArena.close();
    }

    /** Idempotent: the owner of a NIC or a switch and the NIC or switch itself may both close it. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ShmPacketLinkDescriptor.markClosed(ring);
        while (destinationCount > 0) {
            unmap(destinationCount - 1);
        }
        arena.close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            releaseIndex(port & MAX_INDEX, directory);
        }
    }
}
