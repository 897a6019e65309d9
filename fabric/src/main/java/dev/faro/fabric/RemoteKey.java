package dev.faro.fabric;

/**
 * What a peer needs to address a {@link MemoryRegion} remotely (the verbs {@code rkey} plus the region's identity).
 * Obtain your own with {@link MemoryRegion#remoteKey()}, send {@link #toBytes()} to peers over any bootstrap channel,
 * and turn received bytes back into a key with {@link Fabric#importRemoteKey(byte[])} once, at setup: providers may
 * cache resolved state inside the imported object, so reuse it for every request.
 *
 * <p>A key grants nothing by itself: the target checks the key, the bounds and the access rights on every access.
 */
public interface RemoteKey {

    /** A self-describing encoding to hand to peers. */
    byte[] toBytes();

    /** The length of the region this key addresses, as the key's owner stated it. */
    long lengthBytes();
}
