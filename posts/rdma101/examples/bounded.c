/*
 * bounded.c - RDMA 101, lesson 4.3.
 *
 * Asynchronous submission with bounded queues and backpressure. The client
 * produces requests faster than the network takes them. They wait in a
 * bounded submission queue of its own; a pump moves them into the send
 * queue only while the send queue has room and the server has granted a
 * credit (one posted receive buffer each); completions are reaped as they
 * come. When the submission queue is full the producer stops and helps the
 * pump: that is backpressure. The server receives into a few buffers,
 * reposts each one after use and returns credits by writing its running
 * count of reposted buffers, modulo 256, into one byte of the client's
 * memory.
 *
 * -x sq and -x cq show instead what the bookkeeping prevents: a post beyond
 * the send queue's capacity fails at once, and a CQ too small for the
 * completions it is given overflows.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 bounded.c course.c -o bounded -libverbs
 * Run:   ./bounded [-d dev] [-g gid] [-p port] [-c credits]                   (server)
 *        ./bounded [-d dev] [-g gid] [-p port] [-n requests] [-q depth]
 *                  [-x sq|cq] server_host                                      (client)
 */
#define _POSIX_C_SOURCE 200809L /* getopt, nanosleep */
#define _DEFAULT_SOURCE /* htobe64, be64toh: endian(3) */

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define MSG 64          /* bytes in one request */
#define SQ_DEPTH 32     /* send queue entries the client asks for */
#define SIGNAL_EVERY 8  /* one SEND in 8 asks for a completion */
#define MAX_CREDITS 64  /* below 256: the client tells its outstanding requests from one byte */

/*
 * A request on the wire: its number in bytes 0-7, big-endian, then byte 8, 1 for the last request.
 * Written byte by byte rather than as a C struct: the peer's byte order and padding may differ
 * (lesson 2.6).
 */
#define LAST_AT 8

static void put_request(char *slot, uint64_t seq, int last)
{
	uint64_t wire = htobe64(seq);

	memcpy(slot, &wire, sizeof(wire));
	slot[LAST_AT] = (char)last;
}

static uint64_t request_number(const char *slot)
{
	uint64_t wire;

	memcpy(&wire, slot, sizeof(wire));
	return be64toh(wire);
}

/* The client's side of the flow: every counter only grows. */
struct flow {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *slots;              /* SQ_DEPTH send buffers */
	volatile uint8_t *credit; /* the server writes its reposted count here, modulo 256 */
	int credits;              /* receive buffers the server started with */
	uint64_t sent, retired;   /* SENDs posted; SENDs whose completion is in */
	uint64_t *queue;          /* the bounded submission queue (a ring) */
	int depth;
	uint64_t head, tail;      /* tail - head requests wait in the queue */
	uint64_t total;           /* requests the producer will submit */
	long full, no_credit, sq_full, posts, cqes; /* how often each wall was hit */
	int blocked;              /* the wall the pump stands at: 0, 'c' or 's' */
	uint64_t max_in_flight;
};

static int submit(struct flow *f, uint64_t request)
{
	if (f->tail - f->head == (uint64_t)f->depth)
		return -1; /* full: the caller must wait, not grow the queue */
	f->queue[f->tail++ % (uint64_t)f->depth] = request;
	return 0;
}

/* Reap completions: one for SEND n retires every SEND up to n. */
static void reap(struct flow *f)
{
	struct ibv_wc wc[16];
	int n = ibv_poll_cq(f->cq, 16, wc);

	if (n < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			fprintf(stderr, "SEND %" PRIu64 ": %s\n", wc[i].wr_id, wc_status_name(wc[i].status));
			exit(1);
		}
		f->retired = wc[i].wr_id + 1;
		f->cqes++;
	}
}

/* Move queued requests into the send queue while both limits allow it. */
static void pump(struct flow *f)
{
	while (f->head < f->tail) {
		if (f->sent - f->retired == SQ_DEPTH) {
			f->sq_full += f->blocked != 's';
			f->blocked = 's';
			return;
		}
		/* Requests the server has not reposted a buffer for: at most MAX_CREDITS, so 8 bits hold it. */
		if ((uint8_t)(f->sent - *f->credit) == f->credits) {
			f->no_credit += f->blocked != 'c'; /* every receive buffer of the server is taken */
			f->blocked = 'c';
			return;
		}
		f->blocked = 0;
		uint64_t seq = f->queue[f->head % (uint64_t)f->depth];
		char *m = f->slots + (f->sent % SQ_DEPTH) * MSG;
		int last = seq + 1 == f->total;

		put_request(m, seq, last);
		struct ibv_sge sge = { .addr = (uintptr_t)m, .length = MSG, .lkey = f->mr->lkey };
		struct ibv_send_wr wr = { .wr_id = f->sent, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND };

		/* Signal often enough that a full send queue always holds a signalled SEND. */
		if ((f->sent + 1) % SIGNAL_EVERY == 0 || last)
			wr.send_flags = IBV_SEND_SIGNALED;
		post_send_or_die(f->qp, &wr);
		f->posts++;
		f->sent++;
		f->head++;
		if (f->sent - f->retired > f->max_in_flight)
			f->max_in_flight = f->sent - f->retired;
	}
}

static void run_flow(struct flow *f)
{
	for (uint64_t r = 0; r < f->total; r++) {
		if (submit(f, r)) {
			f->full++; /* backpressure: help the pump until there is room */
			do {
				reap(f);
				pump(f);
			} while (submit(f, r));
		}
		reap(f);
		pump(f);
	}
	while (f->retired < f->sent || f->head < f->tail) {
		reap(f);
		pump(f);
	}
	printf("submitted %" PRIu64 " requests through a queue of %d\n", f->total, f->depth);
	printf("sent %" PRIu64 " SENDs with %ld ibv_post_send calls; %ld completions (one in %d signalled)\n",
	       f->sent, f->posts, f->cqes, SIGNAL_EVERY);
	printf("at most %" PRIu64 " SENDs were in the send queue at once\n", f->max_in_flight);
	printf("backpressure: the producer found the submission queue full %ld times\n", f->full);
	printf("the pump waited %ld times for a credit, %ld times for room in the send queue\n",
	       f->no_credit, f->sq_full);
}

/* -x sq: one list four times longer than the send queue we asked for. */
static void overflow_sq(struct flow *f, const struct conn_info *peer)
{
	uint32_t n = 4 * SQ_DEPTH;
	struct ibv_send_wr *wr = calloc(n, sizeof(*wr)), *bad = NULL;
	struct ibv_sge sge = { .addr = (uintptr_t)f->slots, .length = MSG, .lkey = f->mr->lkey };

	if (!wr)
		die("calloc");
	for (uint32_t i = 0; i < n; i++) {
		wr[i] = (struct ibv_send_wr){
			.wr_id = i, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED, .next = i + 1 < n ? &wr[i + 1] : NULL,
			.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
		};
	}
	int rc = ibv_post_send(f->qp, wr, &bad);

	printf("posting a list of %" PRIu32 " WRITEs: ibv_post_send returned %s (%s)\n",
	       n, rc == ENOMEM ? "ENOMEM" : rc ? "an error" : "0", strerror(rc));
	if (bad)
		printf("bad_wr points at WRITE %" PRIu64 ": the %" PRIu64 " before it were posted, it and any after it were not\n",
		       bad->wr_id, bad->wr_id);
	uint64_t posted = bad ? bad->wr_id : n;

	for (uint64_t done = 0; done < posted;) {
		struct ibv_wc wc;

		if (wait_completion(f->cq, &wc))
			exit(1);
		done++;
	}
	printf("all %" PRIu64 " posted WRITEs completed\n", posted);
	free(wr);
}

/* The next async event within seconds, or -1 if none comes. */
static int next_event(struct ibv_context *ctx, int seconds)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;

	if (poll(&p, 1, seconds * 1000) <= 0)
		return -1;
	if (ibv_get_async_event(ctx, &ev))
		die("ibv_get_async_event");
	int type = ev.event_type;

	ibv_ack_async_event(&ev);
	return type;
}

/* -x cq: more signalled WRITEs than the CQ has room for, and nobody polling. */
static void overflow_cq(struct ibv_context *ctx, struct flow *f, const struct conn_info *peer)
{
	int n = SQ_DEPTH;
	struct ibv_sge sge = { .addr = (uintptr_t)f->slots, .length = MSG, .lkey = f->mr->lkey };

	printf("posting %d signalled WRITEs into a CQ with room for %d, without polling\n", n, f->cq->cqe);
	for (int i = 0; i < n; i++) {
		struct ibv_send_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
					  .wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey } };
		post_send_or_die(f->qp, &wr);
	}
	int type = next_event(ctx, 10);

	if (type < 0)
		printf("no async event within 10 s\n");
	else
		printf("async event: %s\n", ibv_event_type_str((enum ibv_event_type)type));
	nanosleep(&(struct timespec){ .tv_sec = 1 }, NULL); /* let every WRITE finish */
	/*
	 * One poll, for more than the CQ holds: it has been full since the event,
	 * so this takes what it held then. Polling again could find a completion
	 * of a WRITE that a stalled machine finished only after this poll made room.
	 */
	struct ibv_wc wc[SQ_DEPTH];
	int got = ibv_poll_cq(f->cq, SQ_DEPTH, wc);

	if (got < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	printf("polled %d completions for %d signalled WRITEs: %d are lost\n", got, n, n - got);
}

/*
 * Return credits: WRITE our count of reposted buffers, modulo 256, into the client's credit byte.
 * One byte, because the bytes of a longer WRITE may be placed in any order (lesson 2.9): the client
 * could read a count half old, half new, and larger than either.
 */
static void return_credits(struct ibv_qp *qp, struct ibv_mr *mr, uint8_t *count, uint64_t reposted,
			   const struct conn_info *peer)
{
	*count = (uint8_t)reposted; /* a registered buffer, untouched until this WRITE completes */
	struct ibv_sge sge = { .addr = (uintptr_t)count, .length = 1, .lkey = mr->lkey };
	struct ibv_send_wr wr = { .wr_id = reposted, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey } };
	post_send_or_die(qp, &wr);
}

/* The server: receive, check the order, repost the buffer, return credits in batches. */
static void serve(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr, char *buf,
		  int credits, const struct conn_info *peer, int sock)
{
	uint8_t *count = (uint8_t *)(buf + MAX_CREDITS * MSG);
	uint64_t expect = 0, reposted = 0, returned = 0;
	long updates = 0;
	int writing = 0, done = 0;

	while (!done || writing) {
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(cq, 16, wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "server: %s\n", wc_status_name(wc[i].status));
				exit(1);
			}
			if (wc[i].opcode == IBV_WC_RDMA_WRITE) {
				writing = 0;
				continue;
			}
			char *slot = buf + wc[i].wr_id * MSG;
			uint64_t seq = request_number(slot);

			if (seq != expect) {
				fprintf(stderr, "server: request %" PRIu64 " arrived, expected %" PRIu64 "\n", seq, expect);
				exit(1);
			}
			expect++;
			done = slot[LAST_AT];
			struct ibv_sge sge = { .addr = (uintptr_t)slot, .length = MSG, .lkey = mr->lkey };
			struct ibv_recv_wr rwr = { .wr_id = wc[i].wr_id, .sg_list = &sge, .num_sge = 1 }, *rbad;
			int rc = ibv_post_recv(qp, &rwr, &rbad);

			if (rc)
				die_rc("ibv_post_recv", rc);
			reposted++;
		}
		/* One credit WRITE at a time, for half the buffers or for what is left at the end. */
		if (!writing && (reposted - returned >= (uint64_t)credits / 2 || (done && reposted > returned))) {
			return_credits(qp, mr, count, reposted, peer);
			returned = reposted;
			writing = 1;
			updates++;
		}
		/* The -x demos send nothing: their "done" is the barrier byte on the TCP socket. */
		struct pollfd p = { .fd = sock, .events = POLLIN };

		if (!n && !expect && poll(&p, 1, 0) > 0) {
			printf("the client sent no requests\n");
			return;
		}
	}
	printf("received %" PRIu64 " requests, each in order\n", expect);
	printf("returned credits %ld times\n", updates);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d device] [-g gid_index] [-p port] [-c credits]           (server)\n"
		"       %s [-d device] [-g gid_index] [-p port] [-n requests] [-q depth]\n"
		"          [-x sq|cq] host                                             (client)\n",
		prog, prog);
	exit(2);
}

int main(int argc, char *argv[])
{
	struct options o = { .gid_index = -1, .tcp_port = COURSE_TCP_PORT };
	const char *demo = NULL;
	int credits = 16, depth = 64, total = 2000, opt;

	while ((opt = getopt(argc, argv, "d:g:p:c:n:q:x:")) != -1) {
		switch (opt) {
		case 'd': o.device = optarg; break;
		case 'g': o.gid_index = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': o.tcp_port = (int)number("-p", optarg, 1, 65535); break;
		case 'c': credits = (int)number("-c", optarg, 2, MAX_CREDITS); break;
		case 'n': total = (int)number("-n", optarg, 1, INT_MAX); break;
		case 'q': depth = (int)number("-q", optarg, 1, INT_MAX); break;
		case 'x': demo = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc - 1 || (demo && strcmp(demo, "sq") && strcmp(demo, "cq")))
		usage(argv[0]);
	o.host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(o.device);
	int gid = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	if (!pd)
		die("ibv_alloc_pd");
	/* Server: receive slots, then the count it writes. Client: send slots, then the credit byte. */
	size_t len = MAX_CREDITS * MSG + 1;
	char *buf = alloc_buffer(len);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);

	if (!mr)
		die("ibv_reg_mr");
	/*
	 * Every completion that can be outstanding needs a CQ entry: SQ_DEPTH
	 * sends (client) or the receives plus a few credit writes (server).
	 * -x cq asks for far fewer on purpose.
	 */
	int cqe = !o.host ? credits + 4 : !demo ? SQ_DEPTH : !strcmp(demo, "cq") ? 8 : 4 * SQ_DEPTH;
	struct ibv_cq *cq = ibv_create_cq(ctx, cqe, NULL, NULL, 0);

	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = o.host ? SQ_DEPTH : 4, .max_recv_wr = o.host ? 1 : (uint32_t)credits,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &qa);

	if (!qp)
		die("ibv_create_qp");
	if (o.host)
		printf("send queue: asked for %d entries, the device made %" PRIu32 "; CQ: asked for %d, got %d\n",
		       SQ_DEPTH, qa.cap.max_send_wr, cqe, cq->cqe);
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	if (!o.host) {
		for (int i = 0; i < credits; i++) { /* the credits: one receive buffer each */
			struct ibv_sge sge = { .addr = (uintptr_t)(buf + i * MSG), .length = MSG, .lkey = mr->lkey };
			struct ibv_recv_wr rwr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1 }, *rbad;
			int rc = ibv_post_recv(qp, &rwr, &rbad);

			if (rc)
				die_rc("ibv_post_recv", rc);
		}
		printf("posted %d receive buffers: the client starts with %d credits\n", credits, credits);
	}
	/*
	 * What each side tells the other: the client, where its credit byte is;
	 * the server, its receive area, whose length in messages is the number
	 * of credits it grants (the -x demos WRITE into it, which is harmless).
	 */
	struct ibv_mr view = *mr;

	view.addr = o.host ? buf + MAX_CREDITS * MSG : buf;
	view.length = o.host ? 1 : (size_t)credits * MSG;
	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid, &view, o.host, o.tcp_port, &mine, &peer);

	if (!o.host) {
		serve(qp, cq, mr, buf, credits, &peer, sock);
	} else if (!demo) {
		struct flow f = { .qp = qp, .cq = cq, .mr = mr, .slots = buf, .depth = depth,
				  .credit = (volatile uint8_t *)(buf + MAX_CREDITS * MSG),
				  .total = (uint64_t)total };

		f.credits = (int)(peer.len / MSG);
		if (!(f.queue = calloc((size_t)depth, sizeof(uint64_t))))
			die("calloc");
		printf("the server granted %d credits\n", f.credits);
		run_flow(&f);
		free(f.queue);
	} else {
		struct flow f = { .qp = qp, .cq = cq, .mr = mr, .slots = buf };

		if (!strcmp(demo, "sq"))
			overflow_sq(&f, &peer);
		else
			overflow_cq(ctx, &f, &peer);
	}
	tcp_barrier(sock); /* both sides are done with the QPs */
	close(sock);
	release_all(qp, cq, mr, pd, NULL);
	free(buf);
	release_all(NULL, NULL, NULL, NULL, ctx);
	return 0;
}
