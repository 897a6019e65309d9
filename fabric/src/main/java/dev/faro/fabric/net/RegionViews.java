package dev.faro.fabric.net;

import java.nio.ByteBuffer;

/**
 * Byte-buffer views of registered regions for socket reads and writes, cached so that the data path allocates
 * nothing: a direct-mapped cache of 64 entries keyed by region. Each user that may hold a view across progress-loop
 * turns (a connection's inbound payload, its outbound payload) has its own cache, so two users never share a view's
 * position and limit.
 *
 * <p>Data path: allocation-free on a hit; a miss (or a region beyond 2 GiB) creates a view. Progress thread only.
 */
final class RegionViews {

    private static final int ENTRIES = 64;

    private final NetMemoryRegion[] regions = new NetMemoryRegion[ENTRIES];
    private final ByteBuffer[] views = new ByteBuffer[ENTRIES];

    /** A view of {@code [offset, offset + length)} of {@code region}: position at the start, limit at the end. */
    ByteBuffer view(NetMemoryRegion region, long offset, int length) {
        if (!region.viewable()) {
            return region.segment().asSlice(offset, length).asByteBuffer();
        }
        int slot = region.id & (ENTRIES - 1);
        ByteBuffer view = views[slot];
        if (regions[slot] != region) {
            view = region.newView();
            views[slot] = view;
            regions[slot] = region;
        }
        view.clear();
        view.limit((int) (offset + length));
        view.position((int) offset);
        return view;
    }

    /** Forgets every view (they keep regions reachable). */
    void clear() {
        java.util.Arrays.fill(regions, null);
        java.util.Arrays.fill(views, null);
    }
}
