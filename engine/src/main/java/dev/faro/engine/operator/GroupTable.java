package dev.faro.engine.operator;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.util.Arrays;
import java.util.List;

/**
 * Maps group keys to dense group ids (0, 1, ...): open addressing over a power-of-two slot array, keys stored
 * column-wise in normalized form (see {@link KeyColumns}); NULL keys form their own group. With one non-string key
 * the lookup goes through a {@link LongGroupSlots} instead (the key beside its group id, no hash or key-column reads
 * per probe). Thread-confined.
 *
 * <p>Data path: allocation-free except when the table grows.
 */
final class GroupTable {

    private final List<DataType> keyTypes;
    private final int keyCount;
    private final boolean[] stringKey;
    private long[][] keyLongs;
    private String[][] keyStrings;
    private boolean[][] keyNulls;
    private long[] groupHashes;
    private int groups;
    private int[] slots;
    private int mask;
    private int[] groupIds = new int[1024];
    /** The lookup of a table with one non-string key, else null. */
    private final LongGroupSlots longSlots;
    /** The group of the NULL key when {@link #longSlots} is in use, or -1 before it exists. */
    private int nullGroup = -1;

    GroupTable(List<DataType> keyTypes) {
        this.keyTypes = List.copyOf(keyTypes);
        this.keyCount = keyTypes.size();
        this.stringKey = new boolean[keyCount];
        this.keyLongs = new long[keyCount][];
        this.keyStrings = new String[keyCount][];
        this.keyNulls = new boolean[keyCount][];
        int capacity = 1024;
        for (int k = 0; k < keyCount; k++) {
            stringKey[k] = keyTypes.get(k).kind() == dev.faro.engine.vector.TypeKind.VARCHAR;
            if (stringKey[k]) {
                keyStrings[k] = new String[capacity];
            } else {
                keyLongs[k] = new long[capacity];
            }
            keyNulls[k] = new boolean[capacity];
        }
        groupHashes = new long[capacity];
        longSlots = keyCount == 1 && !stringKey[0] ? new LongGroupSlots() : null;
        slots = new int[longSlots == null ? 2048 : 2];
        Arrays.fill(slots, -1);
        mask = slots.length - 1;
    }

    int groupCount() {
        return groups;
    }

    /** The hash of group {@code group}'s key. */
    long hash(int group) {
        return groupHashes[group];
    }

    /**
     * Whether {@link #assign} reads the keys' row hashes; a table with one non-string key hashes only the keys of new
     * groups itself (the same hash), so its keys need only be normalized.
     */
    boolean needsRowHashes() {
        return longSlots == null;
    }

    /** The group id of every row of the loaded keys, inserting new groups; valid until the next call. */
    int[] assign(KeyColumns keys) {
        int rows = keys.rows;
        if (groupIds.length < rows) {
            groupIds = new int[rows];
        }
        if (keyCount == 0) {
            if (groups == 0) {
                newGroup(0);
            }
            Arrays.fill(groupIds, 0, rows, 0);
            return groupIds;
        }
        if (longSlots != null) {
            assignLongs(keys.longs[0], keys.nulls[0], rows);
            return groupIds;
        }
        long[] hashes = keys.hashes;
        for (int i = 0; i < rows; i++) {
            long hash = hashes[i];
            int slot = (int) hash & mask;
            while (true) {
                int group = slots[slot];
                if (group < 0) {
                    group = newGroup(hash);
                    copyKey(keys, i, group);
                    slots[slot] = group;
                    groupIds[i] = group;
                    if (groups * 2 > slots.length) {
                        rehash();
                    }
                    break;
                }
                if (groupHashes[group] == hash && keyEquals(keys, i, group)) {
                    groupIds[i] = group;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        return groupIds;
    }

    /**
     * {@link #assign} with one non-string key: through {@link #longSlots}. A row with the key of the row before it
     * (clustered keys, e.g. LINEITEM's order keys) takes that row's group without a lookup.
     */
    private void assignLongs(long[] values, boolean[] nulls, int rows) {
        int[] groupIds = this.groupIds;
        int chunk = LongGroupSlots.PREFETCH_ROWS;
        long lastValue = 0;
        int lastGroup = -1;
        for (int from = 0; from < rows; from += chunk) {
            int to = Math.min(rows, from + chunk);
            if (longSlots.prefetches()) {
                longSlots.prefetch(values, from, to);
            }
            for (int i = from; i < to; i++) {
                if (nulls != null && nulls[i]) {
                    groupIds[i] = nullGroup();
                    continue;
                }
                long value = values[i];
                if (lastGroup < 0 || value != lastValue) {
                    lastGroup = longGroup(value);
                    lastValue = value;
                }
                groupIds[i] = lastGroup;
            }
        }
    }

    /** The group of the non-NULL one-key {@code value} through {@link #longSlots}, inserted when new. */
    private int longGroup(long value) {
        int candidate = groups;
        int group = longSlots.findOrPut(value, candidate);
        if (group == candidate) {
            newGroup(KeyColumns.hashOfOneKey(value));
            keyLongs[0][group] = value;
        }
        return group;
    }

    /** The group of the NULL key when {@link #longSlots} is in use, inserted when new. */
    private int nullGroup() {
        if (nullGroup < 0) {
            nullGroup = newGroup(KeyColumns.hashOfOneNullKey());
            keyNulls[0][nullGroup] = true;
        }
        return nullGroup;
    }

    /** The group of {@code other}'s group {@code otherGroup} in this table, inserted when new. */
    int findOrInsert(GroupTable other, int otherGroup) {
        if (keyCount == 0) {
            if (groups == 0) {
                newGroup(0);
            }
            return 0;
        }
        if (longSlots != null) {
            return other.keyNulls[0][otherGroup] ? nullGroup() : longGroup(other.keyLongs[0][otherGroup]);
        }
        long hash = other.groupHashes[otherGroup];
        int slot = (int) hash & mask;
        while (true) {
            int group = slots[slot];
            if (group < 0) {
                group = newGroup(hash);
                for (int k = 0; k < keyCount; k++) {
                    keyNulls[k][group] = other.keyNulls[k][otherGroup];
                    if (stringKey[k]) {
                        keyStrings[k][group] = other.keyStrings[k][otherGroup];
                    } else {
                        keyLongs[k][group] = other.keyLongs[k][otherGroup];
                    }
                }
                slots[slot] = group;
                if (groups * 2 > slots.length) {
                    rehash();
                }
                return group;
            }
            if (groupHashes[group] == hash && sameKey(other, otherGroup, group)) {
                return group;
            }
            slot = (slot + 1) & mask;
        }
    }

    /**
     * Makes room for {@code expected} groups in all (an estimate: more still fit, the table then grows), so that a
     * merge of known size does not rehash and copy its way up from the initial capacity.
     */
    void reserve(int expected) {
        if (keyCount == 0 || expected <= groups) {
            return;
        }
        if (longSlots != null) {
            longSlots.reserve(expected);
        } else if (expected * 2 > slots.length) {
            slots = new int[Integer.highestOneBit(expected * 2 - 1) << 1];
            rehashSlots();
        }
        if (expected > groupHashes.length) {
            resizeGroups(expected);
        }
    }

    /** Ensures a global aggregation (no keys) has its one group even without input. */
    void ensureGlobalGroup() {
        if (keyCount == 0 && groups == 0) {
            newGroup(0);
        }
    }

    private boolean sameKey(GroupTable other, int otherGroup, int group) {
        for (int k = 0; k < keyCount; k++) {
            boolean nullA = other.keyNulls[k][otherGroup];
            if (nullA != keyNulls[k][group]) {
                return false;
            }
            if (nullA) {
                continue;
            }
            if (stringKey[k]
                    ? !other.keyStrings[k][otherGroup].equals(keyStrings[k][group])
                    : other.keyLongs[k][otherGroup] != keyLongs[k][group]) {
                return false;
            }
        }
        return true;
    }

    private boolean keyEquals(KeyColumns keys, int row, int group) {
        for (int k = 0; k < keyCount; k++) {
            boolean isNull = keys.isNull(k, row);
            if (isNull != keyNulls[k][group]) {
                return false;
            }
            if (isNull) {
                continue;
            }
            if (stringKey[k]
                    ? !keys.strings[k][row].equals(keyStrings[k][group])
                    : keys.longs[k][row] != keyLongs[k][group]) {
                return false;
            }
        }
        return true;
    }

    private void copyKey(KeyColumns keys, int row, int group) {
        for (int k = 0; k < keyCount; k++) {
            boolean isNull = keys.isNull(k, row);
            keyNulls[k][group] = isNull;
            if (stringKey[k]) {
                keyStrings[k][group] = keys.strings[k][row];
            } else if (!isNull) {
                keyLongs[k][group] = keys.longs[k][row];
            }
        }
    }

    private int newGroup(long hash) {
        if (groups == groupHashes.length) {
            resizeGroups(groups * 2);
        }
        groupHashes[groups] = hash;
        return groups++;
    }

    /** Gives the per-group arrays room for {@code capacity} groups. */
    private void resizeGroups(int capacity) {
        groupHashes = Arrays.copyOf(groupHashes, capacity);
        for (int k = 0; k < keyCount; k++) {
            keyNulls[k] = Arrays.copyOf(keyNulls[k], capacity);
            if (stringKey[k]) {
                keyStrings[k] = Arrays.copyOf(keyStrings[k], capacity);
            } else {
                keyLongs[k] = Arrays.copyOf(keyLongs[k], capacity);
            }
        }
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        rehashSlots();
    }

    /** Re-inserts every group into the freshly allocated {@link #slots}. */
    private void rehashSlots() {
        Arrays.fill(slots, -1);
        mask = slots.length - 1;
        for (int group = 0; group < groups; group++) {
            int slot = (int) groupHashes[group] & mask;
            while (slots[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = group;
        }
    }

    /** Key column {@code k} of groups {@code [from, from+count)} as a vector of its type. */
    Vector keyVector(int k, int from, int count) {
        DataType type = keyTypes.get(k);
        VectorBuilder builder = VectorBuilder.create(type, count);
        for (int i = 0; i < count; i++) {
            int group = from + i;
            if (keyNulls[k][group]) {
                builder.setNull(i);
                continue;
            }
            switch (type.kind()) {
                case VARCHAR -> builder.setString(i, keyStrings[k][group]);
                case BIGINT, DECIMAL -> builder.setLong(i, keyLongs[k][group]);
                case INTEGER, DATE -> builder.setInt(i, (int) keyLongs[k][group]);
                case DOUBLE -> builder.setDouble(i, Double.longBitsToDouble(keyLongs[k][group]));
                case BOOLEAN -> builder.setBoolean(i, keyLongs[k][group] != 0);
            }
        }
        return builder.build();
    }
}
