/*
 * The MPI baseline of Faro's shuffle experiments (TODS19 section 7.1): every rank is one node of the shuffle.
 *
 * Each rank builds the same table R(a, b) as Faro's workers (dev.faro.bench.shuffle.ShuffleTuples): per "thread"
 * t and row r, a = mix(node << 40 ^ t << 32 ^ r), b = node << 40 | t << 32 | r, 16 bytes per tuple; it scans the
 * table `scans` times and
 *   - repartition: sends each tuple to rank mix(a) mod nodes (the murmur3 finalizer, as Partitioner.hashLongKey),
 *     through per-destination message buffers of `message_bytes` (64 KB) with MPI_Isend, SEND_DEPTH buffers in
 *     flight per destination, while RECV_DEPTH MPI_Irecv(ANY_SOURCE) stay posted; an empty END message per
 *     destination closes the stream;
 *   - broadcast: sends every tuple to every rank with MPI_Ibcast, one message per root per round, two rounds in
 *     flight.
 * Receivers sum mix(b) over what arrives (the order-independent checksum Faro's harness checks). The clock runs
 * from a barrier after the table is built until the rank has received its last END (repartition) or round
 * (broadcast). Rank 0 prints one line per rank:
 *   NODE <rank> <tuples received> <checksum> <bytes received> <elapsed ns>
 *
 * An optional sixth argument, the receive work, makes receivers hash every received tuple that many more times
 * (the compute intensity of TODS19 section 7.1.7, as Faro's RECEIVE threads do it).
 *
 * An optional seventh argument, ranks per node R (default 1), gives MPI as many cores as a Faro node's threads: run
 * it with -np nodes*R; world rank w plays thread lane w % R of node w / R (mpirun's default by-slot placement keeps
 * a node's ranks together). The R lanes are independent shuffles over their own communicator (MPI_Comm_split by
 * lane): the rank of lane l at node n owns the tables of threads l*T/R ... (l+1)*T/R - 1 and sends only to lane l of
 * the other nodes, so every node still receives exactly what Faro's node does (split over its R ranks); rank 0
 * prints the node totals (elapsed: the slowest of the node's ranks). T must be a multiple of R.
 *
 * Usage: mpi_shuffle repartition|broadcast <threads> <tuples per thread> <scans> <message bytes> [receive work
 *        [ranks per node]]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TUPLE_BYTES 16
#define SEND_DEPTH 4
#define TAG_DATA 1
#define TAG_END 2

static uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *xmalloc(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) {
        fprintf(stderr, "mpi_shuffle: cannot allocate %zu bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* What a rank received; the receive work's result goes to burned so that it is not optimized away. */
static uint64_t received_tuples, received_checksum, received_bytes;
static int receive_work;
static volatile uint64_t burned;

static void consume(const char *buf, int bytes) {
    uint64_t sum = 0;
    int tuples = bytes / TUPLE_BYTES;
    for (int i = 0; i < tuples; i++) {
        uint64_t value;
        memcpy(&value, buf + (size_t) i * TUPLE_BYTES + 8, 8);
        sum += mix(value);
    }
    received_checksum += sum;
    uint64_t burn = 0;
    for (int pass = 0; pass < receive_work; pass++) {
        for (int i = 0; i < tuples; i++) {
            uint64_t key;
            memcpy(&key, buf + (size_t) i * TUPLE_BYTES, 8);
            burn += mix(key + (uint64_t) pass);
        }
    }
    burned += burn;
    received_tuples += (uint64_t) tuples;
    received_bytes += (uint64_t) tuples * TUPLE_BYTES;
}

/* Repartition state. */
static int nodes, self, message_bytes, recv_depth, ends;
static MPI_Comm comm; /* this rank's lane: one rank per node */
static char **recv_buf;
static MPI_Request *recv_req;
static int *done_index;
static MPI_Status *done_status;

static void progress_receives(void) {
    int done = 0;
    MPI_Testsome(recv_depth, recv_req, &done, done_index, done_status);
    if (done == MPI_UNDEFINED) {
        return;
    }
    for (int k = 0; k < done; k++) {
        int i = done_index[k];
        if (done_status[k].MPI_TAG == TAG_END) {
            ends++;
            recv_req[i] = MPI_REQUEST_NULL; /* not re-posted: one fewer sender */
            continue;
        }
        int bytes = 0;
        MPI_Get_count(&done_status[k], MPI_BYTE, &bytes);
        consume(recv_buf[i], bytes);
        MPI_Irecv(recv_buf[i], message_bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &recv_req[i]);
    }
}

typedef struct {
    char *buf[SEND_DEPTH];
    MPI_Request req[SEND_DEPTH];
    int current;
    int fill;
} destination_t;

static void flush(destination_t *d, int rank) {
    MPI_Isend(d->buf[d->current], d->fill, MPI_BYTE, rank, TAG_DATA, comm, &d->req[d->current]);
    d->current = (d->current + 1) % SEND_DEPTH;
    d->fill = 0;
    while (d->req[d->current] != MPI_REQUEST_NULL) {
        int flag = 0;
        MPI_Test(&d->req[d->current], &flag, MPI_STATUS_IGNORE);
        if (!flag) {
            progress_receives();
        }
    }
}

static int64_t repartition(const char *table, long tuples, int scans) {
    destination_t *dest = calloc((size_t) nodes, sizeof(destination_t));
    for (int n = 0; n < nodes; n++) {
        for (int s = 0; s < SEND_DEPTH; s++) {
            dest[n].buf[s] = xmalloc((size_t) message_bytes);
            dest[n].req[s] = MPI_REQUEST_NULL;
        }
    }
    recv_depth = 4 * nodes;
    recv_buf = malloc(sizeof(char *) * (size_t) recv_depth);
    recv_req = malloc(sizeof(MPI_Request) * (size_t) recv_depth);
    done_index = malloc(sizeof(int) * (size_t) recv_depth);
    done_status = malloc(sizeof(MPI_Status) * (size_t) recv_depth);
    for (int i = 0; i < recv_depth; i++) {
        recv_buf[i] = xmalloc((size_t) message_bytes);
        MPI_Irecv(recv_buf[i], message_bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &recv_req[i]);
    }
    int capacity = message_bytes / TUPLE_BYTES * TUPLE_BYTES;
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t start = now_ns();
    for (int scan = 0; scan < scans; scan++) {
        for (long i = 0; i < tuples; i++) {
            const char *tuple = table + (size_t) i * TUPLE_BYTES;
            uint64_t key;
            memcpy(&key, tuple, 8);
            int rank = (int) (mix(key) % (uint64_t) nodes);
            destination_t *d = &dest[rank];
            memcpy(d->buf[d->current] + d->fill, tuple, TUPLE_BYTES);
            d->fill += TUPLE_BYTES;
            if (d->fill + TUPLE_BYTES > capacity) {
                flush(d, rank);
            }
            if ((i & 1023) == 0) {
                progress_receives();
            }
        }
    }
    for (int n = 0; n < nodes; n++) {
        if (dest[n].fill > 0) {
            flush(&dest[n], n);
        }
    }
    MPI_Request *end_req = malloc(sizeof(MPI_Request) * (size_t) nodes);
    for (int n = 0; n < nodes; n++) {
        MPI_Isend(NULL, 0, MPI_BYTE, n, TAG_END, comm, &end_req[n]);
    }
    while (ends < nodes) {
        progress_receives();
    }
    int64_t elapsed = now_ns() - start;
    MPI_Waitall(nodes, end_req, MPI_STATUSES_IGNORE);
    for (int n = 0; n < nodes; n++) {
        MPI_Waitall(SEND_DEPTH, dest[n].req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < recv_depth; i++) {
        if (recv_req[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&recv_req[i]);
            MPI_Wait(&recv_req[i], MPI_STATUS_IGNORE);
        }
    }
    return elapsed;
}

static int64_t broadcast(const char *table, long tuples, int scans) {
    long per_message = message_bytes / TUPLE_BYTES;
    long chunks_per_scan = (tuples + per_message - 1) / per_message;
    long rounds = chunks_per_scan * scans;
    char *buf[2];
    MPI_Request *req[2];
    int *length[2];
    for (int slot = 0; slot < 2; slot++) {
        buf[slot] = xmalloc((size_t) nodes * (size_t) message_bytes);
        req[slot] = malloc(sizeof(MPI_Request) * (size_t) nodes);
        length[slot] = malloc(sizeof(int) * (size_t) nodes);
        for (int n = 0; n < nodes; n++) {
            req[slot][n] = MPI_REQUEST_NULL;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t start = now_ns();
    for (long round = 0; round < rounds + 2; round++) {
        int slot = (int) (round % 2);
        if (round >= 2) {
            MPI_Waitall(nodes, req[slot], MPI_STATUSES_IGNORE);
            for (int n = 0; n < nodes; n++) {
                consume(buf[slot] + (size_t) n * (size_t) message_bytes, length[slot][n]);
            }
        }
        if (round >= rounds) {
            continue;
        }
        long chunk = round % chunks_per_scan;
        long first = chunk * per_message;
        long count = tuples - first < per_message ? tuples - first : per_message;
        int bytes = (int) (count * TUPLE_BYTES);
        memcpy(buf[slot] + (size_t) self * (size_t) message_bytes, table + (size_t) first * TUPLE_BYTES,
                (size_t) bytes);
        for (int root = 0; root < nodes; root++) {
            length[slot][root] = bytes; /* every rank has as many tuples: chunk sizes agree */
            MPI_Ibcast(buf[slot] + (size_t) root * (size_t) message_bytes, bytes, MPI_BYTE, root, comm,
                    &req[slot][root]);
        }
    }
    return now_ns() - start;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int world_size, world_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (argc < 6 || argc > 8) {
        if (world_rank == 0) {
            fprintf(stderr, "usage: mpi_shuffle repartition|broadcast <threads> <tuples per thread> <scans>"
                    " <message bytes> [receive work [ranks per node]]\n");
        }
        MPI_Finalize();
        return 2;
    }
    int is_broadcast = strcmp(argv[1], "broadcast") == 0;
    int threads = atoi(argv[2]);
    long rows = atol(argv[3]);
    int scans = atoi(argv[4]);
    message_bytes = atoi(argv[5]);
    receive_work = argc >= 7 ? atoi(argv[6]) : 0;
    int ranks_per_node = argc == 8 ? atoi(argv[7]) : 1;
    if (ranks_per_node < 1 || threads % ranks_per_node != 0 || world_size % ranks_per_node != 0) {
        if (world_rank == 0) {
            fprintf(stderr, "mpi_shuffle: %d ranks per node must divide the threads (%d) and the ranks (%d)\n",
                    ranks_per_node, threads, world_size);
        }
        MPI_Finalize();
        return 2;
    }
    int node = world_rank / ranks_per_node;
    int lane = world_rank % ranks_per_node;
    MPI_Comm_split(MPI_COMM_WORLD, lane, node, &comm);
    MPI_Comm_size(comm, &nodes);
    MPI_Comm_rank(comm, &self);
    int lane_threads = threads / ranks_per_node;
    int first_thread = lane * lane_threads;
    long tuples = (long) lane_threads * rows;
    char *table = xmalloc((size_t) tuples * TUPLE_BYTES);
    for (int t = 0; t < lane_threads; t++) {
        for (long r = 0; r < rows; r++) {
            uint64_t thread = (uint64_t) (first_thread + t);
            uint64_t key = mix(((uint64_t) self << 40) ^ (thread << 32) ^ (uint64_t) r);
            uint64_t value = (uint64_t) self << 40 | thread << 32 | (uint64_t) r;
            char *tuple = table + ((size_t) t * (size_t) rows + (size_t) r) * TUPLE_BYTES;
            memcpy(tuple, &key, 8);
            memcpy(tuple + 8, &value, 8);
        }
    }
    int64_t elapsed = is_broadcast ? broadcast(table, tuples, scans) : repartition(table, tuples, scans);
    uint64_t mine[4] = {received_tuples, received_checksum, received_bytes, (uint64_t) elapsed};
    uint64_t *all = world_rank == 0 ? malloc(sizeof(mine) * (size_t) world_size) : NULL;
    MPI_Gather(mine, 4, MPI_UINT64_T, all, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (world_rank == 0) {
        for (int n = 0; n < world_size / ranks_per_node; n++) {
            uint64_t sum[3] = {0, 0, 0};
            uint64_t slowest = 0;
            for (int l = 0; l < ranks_per_node; l++) {
                uint64_t *r = all + 4 * (n * ranks_per_node + l);
                sum[0] += r[0];
                sum[1] += r[1];
                sum[2] += r[2];
                slowest = r[3] > slowest ? r[3] : slowest;
            }
            printf("NODE %d %llu %lld %llu %llu\n", n, (unsigned long long) sum[0], (long long) (int64_t) sum[1],
                    (unsigned long long) sum[2], (unsigned long long) slowest);
        }
        fflush(stdout);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
