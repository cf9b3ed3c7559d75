/*
 * toy_engine.c - RDMA 101, lesson 6.1: a transfer engine in one file.
 *
 * The parts every transfer engine has, as small as they can be:
 *  - segments: a registered buffer, and what a peer needs to address it
 *    (base, length, rkey), learned once during setup;
 *  - a batch: requests (local offset, remote offset, length) that are
 *    submitted together and complete together;
 *  - rails: RAILS RC QPs to the same peer; each request is cut into slices
 *    of at most -s bytes and each slice is sprayed onto one rail;
 *  - completion: slice completions are counted up to the batch, and only
 *    when every slice has completed does the engine notify the peer.
 *
 * The server owns the target segment; after each batch it waits for the
 * notification and checks the bytes against the checksum it carries. The
 * client submits -b batches of -n requests of -z bytes each, sprayed over the
 * first -q rails with policy rr (slice i goes to rail i mod q), jsq (the rail
 * with the fewest bytes in flight) or both (taking turns, so that both meet
 * the same conditions); -s A,B takes turns between two slice sizes instead.
 * -w R makes rail R weak: a path MTU of 256 bytes, so the same bytes need
 * several times as many packets.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 toy_engine.c course.c -o toy_engine -libverbs
 * Run:   ./toy_engine [-d DEV] [-g GID] [-p PORT]                                   server
 *        ./toy_engine [-b BATCHES] [-n REQS] [-z BYTES] [-s SLICE[,SLICE]] [-q RAILS]
 *                     [-P rr|jsq|both] [-w RAIL] [-d DEV] [-g GID] [-p PORT] HOST   client
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define RAILS 4             /* QPs connected per peer */
/*
 * Bytes in flight per rail (but always room for one slice). Small on purpose:
 * in the lab, Soft-RoCE under emulation moves a few MB/s, and data that waits
 * longer than the ACK timeout (about 0.54 s, course.h) is retransmitted for nothing.
 */
#define RAIL_BUDGET (16u << 10)
#define MAX_WINDOW 32       /* slices in flight per rail, at most */
#define SEGMENT (8u << 20)  /* bytes in each side's segment */
#define MAX_SLICES 8192
#define MAX_BATCHES 20
#define NOTIFY_ID UINT64_MAX

/* What a peer must know to address a segment: the engine's metadata. */
struct segment {
	const char *name;
	uint64_t base;
	uint64_t len;
	uint32_t key;       /* lkey for our own segment, rkey for the peer's */
};

struct request {
	uint64_t local, remote; /* offsets into the local and the peer segment */
	uint64_t len;
};

struct slice {
	uint64_t local, remote;
	uint32_t len;
	int rail;
};

struct rail {
	struct ibv_qp *qp;
	int window;             /* slices in flight */
	uint64_t inflight;      /* bytes in flight */
	uint64_t slices, bytes; /* totals, for the report */
	int mtu;
};

/* The notification: the last message of a batch, sent after all its slices. */
struct notice {
	uint32_t batch, requests;
	uint32_t last;      /* 1: no batch follows */
	uint64_t bytes, checksum;
};

/* On the wire it is 28 bytes, big-endian, in the order of the fields above. */
#define NOTICE_SIZE 28

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be(const uint8_t *p, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

/* FNV-1a: enough to tell the server whether the bytes it holds are the ones sent. */
static uint64_t fnv1a(uint64_t h, const uint8_t *p, uint64_t len)
{
	for (uint64_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

#define FNV_START 0xcbf29ce484222325ull

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Cut every request into slices of at most `size` bytes. */
static size_t make_slices(const struct request *req, size_t n, uint32_t size, struct slice *s)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		for (uint64_t off = 0; off < req[i].len; off += size) {
			if (count == MAX_SLICES) {
				fprintf(stderr, "more than %d slices: use a larger -s\n", MAX_SLICES);
				exit(1);
			}
			uint64_t left = req[i].len - off;
			s[count++] = (struct slice){ .local = req[i].local + off,
						     .remote = req[i].remote + off,
						     .len = (uint32_t)(left < size ? left : size), .rail = -1 };
		}
	return count;
}

static int has_room(const struct rail *r, uint32_t len)
{
	return r->window == 0 || (r->window < MAX_WINDOW && r->inflight + len <= RAIL_BUDGET);
}

/*
 * The spraying policy: the rail for slice i, or -1 if it must wait.
 * rr fixes the rail in advance, so a full rail stalls every slice behind it;
 * jsq takes whichever rail with room has the fewest bytes in flight.
 */
static int pick_rail(int jsq, size_t i, uint32_t len, const struct rail *r, int q)
{
	if (!jsq)
		return has_room(&r[i % (size_t)q], len) ? (int)(i % (size_t)q) : -1;
	int best = -1;
	for (int k = 0; k < q; k++)
		if (has_room(&r[k], len) && (best < 0 || r[k].inflight < r[best].inflight))
			best = k;
	return best;
}

static void post_slice(struct rail *r, const struct segment *local, const struct segment *peer,
		       struct slice *s, uint64_t id)
{
	struct ibv_sge sge = { .addr = local->base + s->local, .length = s->len, .lkey = local->key };
	struct ibv_send_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED, /* one completion per slice: the engine counts them */
		.wr.rdma = { .remote_addr = peer->base + s->remote, .rkey = peer->key },
	};
	post_send_or_die(r->qp, &wr);
	r->window++;
	r->inflight += s->len;
	r->slices++;
	r->bytes += s->len;
}

/*
 * Submit a batch and drive it to completion: post while rails have room,
 * retire completions, repeat. Returns when every slice has completed.
 */
static void run_batch(struct rail *rails, int q, int jsq, struct ibv_cq *cq,
		      const struct segment *local, const struct segment *peer,
		      struct slice *s, size_t n)
{
	size_t next = 0, done = 0;
	time_t deadline = time(NULL) + COURSE_WAIT_SECONDS;

	while (done < n) {
		int r;
		while (next < n && (r = pick_rail(jsq, next, s[next].len, rails, q)) >= 0) {
			s[next].rail = r;
			post_slice(&rails[r], local, peer, &s[next], next);
			next++;
		}
		struct ibv_wc wc[16];
		int got = ibv_poll_cq(cq, 16, wc);
		if (got < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (got == 0 && time(NULL) > deadline) {
			fprintf(stderr, "no completion within %d seconds\n", COURSE_WAIT_SECONDS);
			exit(1);
		}
		if (got == 0)
			sched_yield(); /* Soft-RoCE runs on these CPUs too */
		else
			deadline = time(NULL) + COURSE_WAIT_SECONDS;
		for (int k = 0; k < got; k++) {
			if (wc[k].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "slice %" PRIu64 ": %s\n", wc[k].wr_id,
					wc_status_name(wc[k].status));
				exit(1);
			}
			struct slice *sl = &s[wc[k].wr_id];
			rails[sl->rail].window--;
			rails[sl->rail].inflight -= sl->len;
			done++;
		}
	}
}

static void send_notice(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *ctl,
			const struct notice *nt)
{
	uint8_t *msg = ctl->addr;
	put_be(msg, nt->batch, 4);
	put_be(msg + 4, nt->requests, 4);
	put_be(msg + 8, nt->last, 4);
	put_be(msg + 12, nt->bytes, 8);
	put_be(msg + 20, nt->checksum, 8);
	struct ibv_sge sge = { .addr = (uintptr_t)msg, .length = NOTICE_SIZE, .lkey = ctl->lkey };
	struct ibv_send_wr wr = { .wr_id = NOTIFY_ID, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	post_send_or_die(qp, &wr);
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		exit(1);
}

static double median(double *v, int n)
{
	for (int i = 1; i < n; i++) /* insertion sort: n is small */
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1], v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What one batch is run with; a run may alternate two of them, batch by batch. */
struct variant {
	int jsq;             /* the policy: 0 rr, 1 jsq */
	uint32_t slice_size;
	char label[40];
};

static void client(int sock, struct rail *rails, int q, const struct variant *v, int variants,
		   int batches, struct ibv_cq *cq, struct ibv_mr *ctl, const struct segment *local,
		   const struct segment *peer, size_t nreq, uint64_t size)
{
	static struct slice slices[MAX_SLICES];
	struct request req[64];
	double ms[2][MAX_BATCHES];
	int runs[2] = { 0, 0 };
	uint64_t total = nreq * size, sum = FNV_START;

	/* The batch: request i moves our block i into the peer's block nreq-1-i. */
	for (size_t i = 0; i < nreq; i++)
		req[i] = (struct request){ .local = i * size, .remote = (nreq - 1 - i) * size, .len = size };
	for (size_t t = 0; t < nreq; t++) /* the peer's bytes in its own order */
		sum = fnv1a(sum, (const uint8_t *)(uintptr_t)local->base + req[nreq - 1 - t].local, size);
	printf("each batch: %zu requests x %" PRIu64 " bytes into segment '%s', over %d rails\n",
	       nreq, size, peer->name, q);
	for (int k = 0; k < q; k++)
		printf("  rail %d: path MTU %d\n", k, rails[k].mtu);

	for (int b = 1; b <= batches; b++) {
		int i = (b - 1) % variants; /* taking turns: both meet the same conditions */
		size_t n = make_slices(req, nreq, v[i].slice_size, slices);
		for (int k = 0; k < q; k++)
			rails[k].slices = rails[k].bytes = 0;
		double start = now_ms();
		run_batch(rails, q, v[i].jsq, cq, local, peer, slices, n);
		double t = ms[i][runs[i]++] = now_ms() - start;
		printf("batch %d (%s): %zu slices, %.1f ms, %.1f MB/s; slices per rail:", b, v[i].label,
		       n, t, (double)total / t / 1e3);
		for (int k = 0; k < q; k++)
			printf(" %" PRIu64, rails[k].slices);
		printf("\n");
		/* Only now: every slice of the batch, on every rail, has been acknowledged. */
		struct notice nt = { .batch = (uint32_t)b, .requests = (uint32_t)nreq,
				     .last = b == batches, .bytes = total, .checksum = sum };
		send_notice(rails[0].qp, cq, ctl, &nt);
		tcp_barrier(sock); /* the server has checked it and is ready for the next */
	}
	printf("notifications sent on rail 0 after each batch; checksum 0x%016" PRIx64 "\n", sum);
	for (int i = 0; i < variants; i++)
		if (runs[i] > 1)
			printf("median of %d batches (%s): %.1f ms (Soft-RoCE: software numbers)\n",
			       runs[i], v[i].label, median(ms[i], runs[i]));
}

static void post_notice_recv(struct ibv_qp *qp, struct ibv_mr *ctl)
{
	struct ibv_sge sge = { .addr = (uintptr_t)ctl->addr, .length = NOTICE_SIZE, .lkey = ctl->lkey };
	struct ibv_recv_wr wr = { .wr_id = NOTIFY_ID, .sg_list = &sge, .num_sge = 1 }, *bad_wr = NULL;
	int rc = ibv_post_recv(qp, &wr, &bad_wr);
	if (rc)
		die_rc("ibv_post_recv", rc);
}

static void server(int sock, struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *ctl,
		   const struct segment *local)
{
	for (;;) {
		struct ibv_wc wc;
		if (wait_completion(cq, &wc))
			exit(1);
		const uint8_t *msg = ctl->addr;
		struct notice nt = { .batch = (uint32_t)get_be(msg, 4), .requests = (uint32_t)get_be(msg + 4, 4),
				     .last = (uint32_t)get_be(msg + 8, 4), .bytes = get_be(msg + 12, 8),
				     .checksum = get_be(msg + 20, 8) };
		if (wc.byte_len != NOTICE_SIZE || nt.bytes > local->len) {
			printf("a malformed notification\n");
			exit(1);
		}
		uint64_t sum = fnv1a(FNV_START, (const uint8_t *)(uintptr_t)local->base, nt.bytes);
		printf("notification: batch %" PRIu32 ", %" PRIu32 " requests, %" PRIu64 " bytes, checksum %s\n",
		       nt.batch, nt.requests, nt.bytes, sum == nt.checksum ? "matches" : "DIFFERS");
		if (sum != nt.checksum)
			exit(1);
		/* Every batch writes the same bytes: clear them, so the next check proves its own. */
		memset((void *)(uintptr_t)local->base, 0, nt.bytes);
		if (!nt.last)
			post_notice_recv(qp, ctl); /* before the barrier lets the next batch start */
		tcp_barrier(sock);
		if (nt.last)
			break;
	}
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	int gid_arg = -1, port = COURSE_TCP_PORT, q = RAILS, batches = 1, weak = -1, opt, bad = 0;
	const char *policy = "jsq";
	unsigned long nreq = 8, size = 256 << 10, sizes[2] = { 16 << 10, 0 };
	char *comma;

	while ((opt = getopt(argc, argv, "b:n:z:s:q:P:w:d:g:p:")) != -1) {
		switch (opt) {
		case 'b': batches = (int)number("-b", optarg, 1, MAX_BATCHES); break;
		case 'n': nreq = (unsigned long)number("-n", optarg, 1, 64); break;
		case 'z': size = (unsigned long)number("-z", optarg, 1, SEGMENT); break;
		case 's': /* one slice size, or two to take turns */
			if ((comma = strchr(optarg, ',')))
				*comma = '\0';
			sizes[0] = (unsigned long)number("-s", optarg, 1, 1 << 30);
			sizes[1] = comma ? (unsigned long)number("-s", comma + 1, 1, 1 << 30) : 0;
			break;
		case 'q': q = (int)number("-q", optarg, 1, RAILS); break;
		case 'P': policy = optarg; break;
		case 'w': weak = (int)number("-w", optarg, 0, RAILS - 1); break;
		case 'd': dev = optarg; break;
		case 'g': gid_arg = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': port = (int)number("-p", optarg, 1, 65535); break;
		default: bad = 1; break;
		}
	}
	struct variant v[2];
	int both = strcmp(policy, "both") == 0, variants = both || sizes[1] ? 2 : 1;
	bad |= strcmp(policy, "rr") && strcmp(policy, "jsq") && !both;
	bad |= both && sizes[1]; /* one thing at a time */
	for (int i = 0; i < variants; i++) {
		unsigned long s = sizes[i < 1 || !sizes[1] ? 0 : 1];
		v[i].jsq = both ? i : strcmp(policy, "jsq") == 0;
		v[i].slice_size = (uint32_t)s;
		snprintf(v[i].label, sizeof(v[i].label), "%s, %lu-byte slices", v[i].jsq ? "jsq" : "rr", s);
	}
	if (bad || nreq * size > SEGMENT) {
		fprintf(stderr, "usage: %s [-b BATCHES<=%d] [-n REQS<=64] [-z BYTES] [-s SLICE[,SLICE]] [-q RAILS<=%d] "
			"[-P rr|jsq|both] [-w RAIL] [-d DEV] [-g GID] [-p PORT] [HOST]\n"
			"       (REQS x BYTES <= %u)\n", argv[0], MAX_BATCHES, RAILS, SEGMENT);
		return 1;
	}
	const char *host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(dev);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, gid_arg);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	uint8_t *buf = alloc_buffer(SEGMENT);
	for (uint32_t i = 0; i < SEGMENT; i++) /* the server's bytes are overwritten */
		buf[i] = host ? (uint8_t)(i * 7 + i / 4093) : 0;
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, SEGMENT,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr (segment)");
	void *ctl_buf = alloc_buffer(NOTICE_SIZE);
	struct ibv_mr *ctl = ibv_reg_mr(pd, ctl_buf, NOTICE_SIZE, IBV_ACCESS_LOCAL_WRITE);
	if (!ctl)
		die("ibv_reg_mr (notice)");
	struct ibv_cq *cq = ibv_create_cq(ctx, RAILS * (MAX_WINDOW + 1) + 1, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");

	struct segment local = { .name = host ? "client" : "server", .base = (uintptr_t)buf,
				 .len = SEGMENT, .key = mr->lkey };
	struct segment peer = { .name = host ? "server" : "client" };
	struct rail rails[RAILS];
	int sock = host ? tcp_connect(host, port) : tcp_listen_accept(port);
	for (int k = 0; k < RAILS; k++) { /* every rail is an RC QP, connected as in lesson 2.6 */
		struct ibv_qp_init_attr init = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = MAX_WINDOW + 1, .max_recv_wr = 1,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};
		struct conn_info me, them;
		rails[k] = (struct rail){ .qp = ibv_create_qp(pd, &init) };
		if (!rails[k].qp)
			die("ibv_create_qp");
		qp_to_init(rails[k].qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
		local_info(rails[k].qp, COURSE_IB_PORT, gid_index, mr, &me);
		if (k == weak)
			me.mtu = IBV_MTU_256; /* both ends take the smaller MTU */
		exchange_info(sock, &me, &them);
		qp_to_rtr(rails[k].qp, COURSE_IB_PORT, gid_index, &me, &them);
		qp_to_rts(rails[k].qp, &me, &them);
		rails[k].mtu = 128 << (me.mtu < them.mtu ? me.mtu : them.mtu);
		peer.base = them.addr, peer.len = them.len, peer.key = them.rkey;
	}
	printf("segments: '%s' (local, %" PRIu64 " bytes) and '%s' (peer, %" PRIu64 " bytes), %d rails\n",
	       local.name, local.len, peer.name, peer.len, RAILS);
	if (!host)
		post_notice_recv(rails[0].qp, ctl); /* before the barrier */
	tcp_barrier(sock);

	if (host)
		client(sock, rails, q, v, variants, batches, cq, ctl, &local, &peer, nreq, size);
	else
		server(sock, rails[0].qp, cq, ctl, &local);
	tcp_barrier(sock);
	printf("done\n");

	close(sock);
	for (int k = 0; k < RAILS; k++)
		release_all(rails[k].qp, NULL, NULL, NULL, NULL);
	release_all(NULL, cq, mr, NULL, NULL);
	int rc = ibv_dereg_mr(ctl); /* the second region, before its PD */
	if (rc)
		die_rc("ibv_dereg_mr", rc);
	release_all(NULL, NULL, NULL, pd, ctx);
	free(ctl_buf);
	free(buf);
	return 0;
}
