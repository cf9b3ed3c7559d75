/*
 * posting.c - RDMA 101, lesson 4.2.
 *
 * From one request at a time to continuous posting, measured step by step.
 * The client RDMA-WRITEs small messages into a ring of slots on the server,
 * the same number of writes in each of five steps, changing one thing at a
 * time:
 *   1. register the source buffer for every write, post it, wait, deregister;
 *   2. register once and reuse the registration (and the work request);
 *   3. keep a window of writes in flight instead of waiting for each;
 *   4. ask for a completion on only one write in eight;
 *   5. hand the provider lists of eight writes per ibv_post_send call.
 * The steps run in rounds, each round in a rotated order, and each step
 * prints the median rate of the rounds with their range, its system CPU time
 * per write, how many ibv_post_send calls and completions it needed, and in
 * how many rounds it beat the step before. The server only checks, at the
 * end, that the last writes landed in the right slots.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 posting.c course.c -o posting -libverbs
 * Run:   ./posting [-d dev] [-g gid] [-p port] [-s bytes]                      (server)
 *        ./posting [-d dev] [-g gid] [-p port] [-s bytes] [-n writes] [-r rounds] server_host
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getopt */
#define _DEFAULT_SOURCE /* htobe64, be64toh: endian(3) */

#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define SLOTS 256  /* the server's ring */
#define WINDOW 32  /* writes in flight, at most, from step 3 on */
#define EVERY 8    /* from step 4 on, one write in EVERY asks for a completion */
#define LIST 8     /* step 5 posts lists of LIST writes */

struct step {
	const char *what;
	int register_each, window, signal_every, list;
};

static const struct step steps[] = {
	{ "register, post, wait, deregister: one write at a time", 1, 1, 1, 1 },
	{ "registered once: one write at a time", 0, 1, 1, 1 },
	{ "a window of 32 writes in flight, every one signalled", 0, WINDOW, 1, 1 },
	{ "a window of 32, one write in 8 signalled", 0, WINDOW, EVERY, 1 },
	{ "a window of 32, one in 8 signalled, lists of 8 per post", 0, WINDOW, EVERY, LIST },
};

struct client {
	struct ibv_pd *pd;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;      /* the whole source buffer, registered once */
	struct ibv_mr *each[WINDOW]; /* step 1: one registration per write in flight */
	char *src;              /* WINDOW source slots */
	uint32_t size;
	struct conn_info peer;
	uint64_t next_stamp;    /* every write carries a sequence number, from 1 */
};

struct result {
	double seconds, user, sys; /* wall-clock, user and system CPU time */
	long posts, completions;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void cpu_s(double *user, double *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Fill in write i of a step (wr_id i) from source slot i % WINDOW. */
static void prepare(struct client *c, const struct step *s, int i, int n,
		    struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	int slot = i % WINDOW;
	char *src = c->src + (size_t)slot * c->size;
	uint64_t stamp = c->next_stamp++;
	uint64_t wire = htobe64(stamp); /* big-endian: the server's byte order may differ (lesson 2.6) */
	uint32_t lkey = c->mr->lkey;

	memcpy(src, &wire, sizeof(wire));
	if (s->register_each) {
		c->each[slot] = ibv_reg_mr(c->pd, src, c->size, IBV_ACCESS_LOCAL_WRITE);
		if (!c->each[slot])
			die("ibv_reg_mr");
		lkey = c->each[slot]->lkey;
	}
	*sge = (struct ibv_sge){ .addr = (uintptr_t)src, .length = c->size, .lkey = lkey };
	*wr = (struct ibv_send_wr){
		.wr_id = (uint64_t)i, .sg_list = sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = c->peer.addr + (stamp % SLOTS) * c->size,
			     .rkey = c->peer.rkey },
	};
	/* Completions come in order: one for write i retires every write before it. */
	if ((i + 1) % s->signal_every == 0 || i == n - 1)
		wr->send_flags = IBV_SEND_SIGNALED;
}

static struct result run_step(struct client *c, const struct step *s, int n)
{
	struct ibv_send_wr wr[LIST];
	struct ibv_sge sge[LIST];
	struct ibv_wc wc[WINDOW];
	struct result r = { 0 };
	int posted = 0, retired = 0;
	double t0 = now_s(), user0, sys0;

	cpu_s(&user0, &sys0);

	while (retired < n) {
		/* Post while the window has room for a whole list. */
		while (posted < n) {
			int k = n - posted < s->list ? n - posted : s->list;

			if (posted + k - retired > s->window)
				break;
			for (int j = 0; j < k; j++) {
				prepare(c, s, posted + j, n, &wr[j], &sge[j]);
				wr[j].next = j + 1 < k ? &wr[j + 1] : NULL;
			}
			post_send_or_die(c->qp, wr);
			r.posts++;
			posted += k;
		}
		int got = ibv_poll_cq(c->cq, WINDOW, wc);

		if (got < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		for (int j = 0; j < got; j++) {
			if (wc[j].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "write %" PRIu64 ": %s\n", wc[j].wr_id,
					wc_status_name(wc[j].status));
				exit(1);
			}
			r.completions++;
			retired = (int)wc[j].wr_id + 1;
			if (s->register_each) {
				int rc = ibv_dereg_mr(c->each[wc[j].wr_id % WINDOW]);

				if (rc)
					die_rc("ibv_dereg_mr", rc);
			}
		}
	}
	r.seconds = now_s() - t0;
	cpu_s(&r.user, &r.sys);
	r.user -= user0;
	r.sys -= sys0;
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NSTEPS (int)(sizeof(steps) / sizeof(steps[0]))
#define MAX_ROUNDS 9

/*
 * Rounds of every step in turn, so that a slow moment of the machine hits
 * all steps alike. Each round starts one step later than the one before,
 * so that no step always follows the same neighbour. Per step: the median
 * of the rounds, and the range.
 */
static void run_client(struct client *c, int n, int rounds)
{
	double rate[NSTEPS][MAX_ROUNDS], sys[NSTEPS] = { 0 };
	struct result r[NSTEPS];

	run_step(c, &steps[1], n / 10 > 0 ? n / 10 : 1);
	printf("warm-up: %d writes, not measured\n", n / 10 > 0 ? n / 10 : 1);
	for (int k = 0; k < rounds; k++) {
		for (int j = 0; j < NSTEPS; j++) {
			int i = (j + k) % NSTEPS;

			r[i] = run_step(c, &steps[i], n);
			rate[i][k] = n / r[i].seconds;
			sys[i] += r[i].sys;
		}
		printf("round %d of %d done\n", k + 1, rounds);
	}
	double median[NSTEPS];

	for (int i = 0; i < NSTEPS; i++) {
		double sorted[MAX_ROUNDS];

		memcpy(sorted, rate[i], sizeof(double) * (size_t)rounds);
		qsort(sorted, (size_t)rounds, sizeof(double), cmp_double);
		median[i] = rounds % 2 ? sorted[rounds / 2] : (sorted[rounds / 2 - 1] + sorted[rounds / 2]) / 2;
		printf("step %d: %s\n", i + 1, steps[i].what);
		printf("  %.1f writes/s (median of %d rounds; range %.1f to %.1f)\n",
		       median[i], rounds, sorted[0], sorted[rounds - 1]);
		/* The kernel samples CPU time at clock ticks: sum over all rounds. */
		printf("  system CPU time %.1f us a write; %ld ibv_post_send calls and %ld completions a round\n",
		       1e6 * sys[i] / ((double)n * rounds), r[i].posts, r[i].completions);
		if (i == 0)
			continue;
		int faster = 0;

		for (int k = 0; k < rounds; k++)
			faster += rate[i][k] > rate[i - 1][k];
		printf("  %.2fx step %d; faster than step %d in %d of %d rounds\n",
		       median[i] / median[i - 1], i, i, faster, rounds);
	}
	printf("wrote %" PRIu64 " messages in all\n", c->next_stamp - 1);
}

/* The number of the write that slot `slot` holds; the client wrote it big-endian. */
static uint64_t stamp_in(const char *ring, uint32_t size, int slot)
{
	uint64_t stamp;

	memcpy(&stamp, ring + (size_t)slot * size, sizeof(stamp));
	return be64toh(stamp);
}

/*
 * The server's check. Writes are numbered from 1 and write w lands in slot
 * w % SLOTS, so after the newest write N, slot i must hold the newest write
 * up to N that belongs to it, or nothing (0) if fewer than SLOTS were made.
 */
static void check_ring(const char *ring, uint32_t size)
{
	uint64_t newest = 0, stamp;

	for (int i = 0; i < SLOTS; i++) {
		stamp = stamp_in(ring, size, i);
		if (stamp > newest)
			newest = stamp;
	}
	for (int i = 0; i < SLOTS; i++) {
		uint64_t back = (newest + SLOTS - (uint64_t)i) % SLOTS; /* slot i's newest is this far back */
		uint64_t want = newest >= back + 1 ? newest - back : 0;

		stamp = stamp_in(ring, size, i);
		if (stamp != want) {
			printf("ring check FAILED: slot %d holds write %" PRIu64 ", not %" PRIu64 "\n",
			       i, stamp, want);
			exit(1);
		}
	}
	uint64_t first = newest > SLOTS ? newest - SLOTS + 1 : 1;

	printf("ring check: the last %" PRIu64 " writes, %" PRIu64 " to %" PRIu64
	       ", each in its own slot of %d\n", newest - first + 1, first, newest, SLOTS);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d device] [-g gid_index] [-p port] [-s bytes]                 (server)\n"
		"       %s [-d device] [-g gid_index] [-p port] [-s bytes] [-n writes] [-r rounds] host\n",
		prog, prog);
	exit(2);
}

int main(int argc, char *argv[])
{
	const char *dev = NULL;
	int gid_req = -1, port = COURSE_TCP_PORT, n = 500, rounds = 3, opt;
	long size = 64;

	while ((opt = getopt(argc, argv, "d:g:p:s:n:r:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'g': gid_req = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': port = (int)number("-p", optarg, 1, 65535); break;
		case 's': size = number("-s", optarg, 8, 1 << 20); break;
		case 'n': n = (int)number("-n", optarg, 1, INT_MAX); break;
		case 'r': rounds = (int)number("-r", optarg, 1, MAX_ROUNDS); break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc - 1)
		usage(argv[0]);
	const char *host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(dev);
	int gid = choose_gid(ctx, COURSE_IB_PORT, gid_req);
	struct client c = { .size = (uint32_t)size, .next_stamp = 1 };

	if (!(c.pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
	/* The server exposes SLOTS slots; the client writes from WINDOW slots. */
	size_t len = (size_t)size * (host ? WINDOW : SLOTS);

	c.src = alloc_buffer(len);
	/* Only the server's ring is written remotely; the client's buffer is only read. */
	c.mr = ibv_reg_mr(c.pd, c.src, len, IBV_ACCESS_LOCAL_WRITE | (host ? 0 : IBV_ACCESS_REMOTE_WRITE));
	if (!c.mr)
		die("ibv_reg_mr");
	/* At most WINDOW writes, so at most WINDOW completions, are outstanding. */
	if (!(c.cq = ibv_create_cq(ctx, WINDOW, NULL, NULL, 0)))
		die("ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = c.cq, .recv_cq = c.cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
		.cap = { .max_send_wr = WINDOW, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	if (!(c.qp = ibv_create_qp(c.pd, &qa)))
		die("ibv_create_qp");
	qp_to_init(c.qp, COURSE_IB_PORT, host ? 0 : IBV_ACCESS_REMOTE_WRITE);

	struct conn_info mine;
	int sock = connect_qp(c.qp, COURSE_IB_PORT, gid, host ? NULL : c.mr, host, port, &mine, &c.peer);

	if (host)
		printf("setup: %s, %ld-byte RDMA WRITEs into the server's %d-slot ring, %d writes a step\n",
		       device_name(ctx), size, SLOTS, n);

	if (host) {
		run_client(&c, n, rounds);
		tcp_barrier(sock); /* every write has completed: the server may look */
	} else {
		printf("waiting for the client's writes\n");
		tcp_barrier(sock);
		check_ring(c.src, c.size);
	}
	close(sock);

	release_all(c.qp, c.cq, c.mr, NULL, NULL);
	free(c.src); /* only once it is deregistered */
	release_all(NULL, NULL, NULL, c.pd, ctx);
	return 0;
}
