/*
 * rc_pingpong.c - RDMA 101, lesson 2.15: the capstone.
 *
 * A ping-pong over one RC queue pair that uses the patterns of Part 2:
 *   - write then notify: each message is an RDMA WRITE of the payload into
 *     a slot of the peer's landing ring, followed by a small SEND that
 *     names the slot (lessons 2.7 and 2.9);
 *   - inline sends: that notification goes inline (lesson 2.8);
 *   - several operations in flight: the client keeps up to WINDOW pings
 *     outstanding, and the window is its credit: a slot is free again once
 *     its pong has come back (lessons 2.9 and 2.13);
 *   - selective signalling: only every SIGNAL_EVERY-th notification asks for
 *     a completion (lesson 2.13);
 *   - a completion channel: both sides sleep until a message arrives
 *     (lesson 2.2).
 * The client runs two phases, window 1 (latency) and window WINDOW
 * (throughput), checks every byte that comes back, and tells the server when
 * it is done. Exit status 0 when every payload was verified, 1 otherwise.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 rc_pingpong.c course.c -o rc_pingpong -libverbs
 * Run:   ./rc_pingpong [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./rc_pingpong [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define SLOTS 16            /* landing-ring slots on each side */
#define SLOT_SIZE 4096      /* the largest payload */
#define WINDOW 8            /* pings in flight in phase 2; at most SLOTS */
#define SIGNAL_EVERY 4      /* a completion for every 4th notification */
#define SQ_DEPTH (2 * SLOTS) /* two work requests per message */
#define DONE 0xffffffffu    /* the sequence number of the final message */
#define WAIT_MS 10000
#define ITERS 200           /* round trips per phase */
#define SIZE 64             /* payload bytes per message, at most SLOT_SIZE */

/* The notification: which message, how long. Network byte order. */
struct note {
	uint32_t seq, len;
};

/* Memory only our own work requests use; the peer never gets its key. */
struct private_bufs {
	char src[SLOTS][SLOT_SIZE]; /* payloads we WRITE to the peer */
	struct note notes[SLOTS];   /* where incoming notifications land */
};

struct pingpong {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *channel;
	struct ibv_cq *send_cq, *recv_cq;
	struct ibv_qp *qp;
	char *ring;                 /* the peer WRITEs payloads here */
	struct private_bufs *priv;
	struct ibv_mr *ring_mr, *priv_mr;
	struct conn_info me, peer;
	uint64_t posted, retired;   /* send work requests, for the queue's space */
	uint64_t slot_posted[SLOTS]; /* `posted` after the last message from a slot */
	unsigned since_signal;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Payload bytes for message seq: the peer regenerates them to check. */
static void fill(char *p, uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (char)(seq * 31 + i);
}

static int check(const char *p, uint32_t seq, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != (char)(seq * 31 + i))
			return -1;
	return 0;
}

static void post_note_recv(struct pingpong *c, uint64_t slot)
{
	struct ibv_sge sge = { .addr = (uintptr_t)&c->priv->notes[slot],
			       .length = sizeof(struct note), .lkey = c->priv_mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(c->qp, &wr, &bad);
	if (rc)
		die_rc("ibv_post_recv", rc);
}

/* Make room for n more send work requests: reap signalled completions. */
static void reserve_send_queue(struct pingpong *c, unsigned n)
{
	while (c->posted - c->retired + n > SQ_DEPTH) {
		struct ibv_wc wc;
		if (wait_completion(c->send_cq, &wc))
			exit(1);
		c->retired = wc.wr_id; /* a completion retires everything before it */
	}
}

/* A source slot may be refilled only once the last WRITE from it has been
 * retired by a (later, signalled) completion. */
static char *claim_source(struct pingpong *c, uint32_t seq)
{
	uint32_t slot = seq % SLOTS;

	while (c->retired < c->slot_posted[slot]) {
		struct ibv_wc wc;
		if (wait_completion(c->send_cq, &wc))
			exit(1);
		c->retired = wc.wr_id;
	}
	return c->priv->src[slot];
}

/* Write then notify: payload into the peer's slot, then an inline note. */
static void send_message(struct pingpong *c, uint32_t seq, uint32_t len, int signal)
{
	uint32_t slot = seq % SLOTS;
	struct note note = { htonl(seq), htonl(len) };
	struct ibv_sge data_sge = { .addr = (uintptr_t)c->priv->src[slot], .length = len,
				    .lkey = c->priv_mr->lkey };
	/* Inline: the library copies the note during the post, so the stack may hold it. */
	struct ibv_sge note_sge = { .addr = (uintptr_t)&note, .length = sizeof(note) };
	struct ibv_send_wr note_wr = {
		.sg_list = &note_sge, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_INLINE,
	};
	struct ibv_send_wr data_wr = {
		.sg_list = &data_sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE, .next = &note_wr,
		.wr.rdma = { .remote_addr = c->peer.addr + (uint64_t)slot * SLOT_SIZE,
			     .rkey = c->peer.rkey },
	}, *first = len ? &data_wr : &note_wr, *bad;

	reserve_send_queue(c, 2);
	c->posted += len ? 2 : 1;
	if (signal || ++c->since_signal == SIGNAL_EVERY) {
		note_wr.send_flags |= IBV_SEND_SIGNALED;
		note_wr.wr_id = c->posted; /* how many requests this completion retires */
		c->since_signal = 0;
	}
	int rc = ibv_post_send(c->qp, first, &bad);
	if (rc)
		die_rc("ibv_post_send", rc);
	c->slot_posted[slot] = c->posted;
}

/* Sleep on the completion channel until a note arrives; repost its receive. */
static struct note next_message(struct pingpong *c)
{
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(c->recv_cq, 1, &wc)) == 0) {
		/* Arm, then drain once more: a note that arrived before the
		 * arming raises no event, but this poll still finds it. */
		int rc = ibv_req_notify_cq(c->recv_cq, 0);
		if (rc)
			die_rc("ibv_req_notify_cq", rc);
		if ((n = ibv_poll_cq(c->recv_cq, 1, &wc)) != 0)
			break;
		struct pollfd pfd = { .fd = c->channel->fd, .events = POLLIN };
		if (poll(&pfd, 1, WAIT_MS) != 1)
			die_rc("waiting for the peer", ETIMEDOUT);
		struct ibv_cq *cq;
		void *cq_ctx;
		if (ibv_get_cq_event(c->channel, &cq, &cq_ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(cq, 1);
	}
	if (n < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	if (wc.status != IBV_WC_SUCCESS) {
		fprintf(stderr, "receive %" PRIu64 ": %s (%s)\n", wc.wr_id,
			wc_status_name(wc.status), ibv_wc_status_str(wc.status));
		/* A flushed receive is a consequence: the cause is usually a
		 * failed send, waiting unpolled in the send CQ. Show it. */
		while (ibv_poll_cq(c->send_cq, 1, &wc) > 0)
			if (wc.status != IBV_WC_SUCCESS && wc.status != IBV_WC_WR_FLUSH_ERR)
				fprintf(stderr, "send: %s (%s)\n", wc_status_name(wc.status),
					ibv_wc_status_str(wc.status));
		exit(1);
	}
	struct note note = c->priv->notes[wc.wr_id];
	post_note_recv(c, wc.wr_id);
	return (struct note){ ntohl(note.seq), ntohl(note.len) };
}

/* Client: `iters` round trips with up to `window` pings in flight. */
static double run_phase(struct pingpong *c, uint32_t *seq, uint32_t iters, uint32_t window,
			uint32_t size)
{
	uint32_t first = *seq, sent = 0, got = 0;
	double start = now();

	while (got < iters) {
		while (sent < iters && sent - got < window) { /* one credit per free slot */
			uint32_t s = first + sent++;
			fill(claim_source(c, s), s, size);
			send_message(c, s, size, 0);
		}
		struct note pong = next_message(c);
		uint32_t want = first + got++;
		if (pong.seq != want || pong.len != size ||
		    check(c->ring + (size_t)(want % SLOTS) * SLOT_SIZE, want, size)) {
			fprintf(stderr, "pong %" PRIu32 ": wrong sequence, length or payload\n", want);
			exit(1);
		}
	}
	*seq = first + iters;
	return now() - start;
}

static void client(struct pingpong *c, uint32_t iters, uint32_t size)
{
	uint32_t seq = 0;
	double t1 = run_phase(c, &seq, iters, 1, size);
	printf("window 1: %" PRIu32 " round trips of %" PRIu32 " bytes, %.1f us each\n",
	       iters, size, t1 / iters * 1e6);
	double t2 = run_phase(c, &seq, iters, WINDOW, size);
	printf("window %d: %" PRIu32 " round trips of %" PRIu32 " bytes, %.1f per second\n",
	       WINDOW, iters, size, iters / t2);

	send_message(c, DONE, 0, 1); /* signalled: its completion retires all */
	reserve_send_queue(c, SQ_DEPTH);
	printf("%" PRIu32 " pongs, every payload verified\n", seq);
}

static void server(struct pingpong *c)
{
	uint32_t served = 0;

	for (;;) {
		struct note ping = next_message(c);
		if (ping.seq == DONE)
			break;
		const char *in = c->ring + (size_t)(ping.seq % SLOTS) * SLOT_SIZE;
		if (ping.len > SLOT_SIZE || check(in, ping.seq, ping.len)) {
			fprintf(stderr, "ping %" PRIu32 ": wrong payload\n", ping.seq);
			exit(1);
		}
		/* Echo it: the notification has completed, so the payload is in place. */
		memcpy(claim_source(c, ping.seq), in, ping.len);
		send_message(c, ping.seq, ping.len, 0);
		served++;
	}
	printf("served %" PRIu32 " pings, every payload verified\n", served);
}

static void setup(struct pingpong *c, const struct options *o)
{
	c->ctx = open_device(o->device);
	int gid_index = choose_gid(c->ctx, COURSE_IB_PORT, o->gid_index);
	c->pd = ibv_alloc_pd(c->ctx);
	if (!c->pd)
		die("ibv_alloc_pd");
	c->channel = ibv_create_comp_channel(c->ctx); /* a file descriptor to sleep on */
	if (!c->channel)
		die("ibv_create_comp_channel");
	c->send_cq = ibv_create_cq(c->ctx, SQ_DEPTH, NULL, NULL, 0);
	c->recv_cq = ibv_create_cq(c->ctx, SLOTS, NULL, c->channel, 0);
	if (!c->send_cq || !c->recv_cq)
		die("ibv_create_cq");
	c->ring = alloc_buffer((size_t)SLOTS * SLOT_SIZE);
	c->priv = alloc_buffer(sizeof(*c->priv));
	c->ring_mr = ibv_reg_mr(c->pd, c->ring, (size_t)SLOTS * SLOT_SIZE,
				IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	c->priv_mr = ibv_reg_mr(c->pd, c->priv, sizeof(*c->priv), IBV_ACCESS_LOCAL_WRITE);
	if (!c->ring_mr || !c->priv_mr)
		die("ibv_reg_mr");
	struct ibv_qp_init_attr init = {
		.send_cq = c->send_cq, .recv_cq = c->recv_cq, .qp_type = IBV_QPT_RC,
		.sq_sig_all = 0, /* we choose which requests are signalled */
		.cap = { .max_send_wr = SQ_DEPTH, .max_recv_wr = SLOTS, .max_send_sge = 1,
			 .max_recv_sge = 1, .max_inline_data = sizeof(struct note) },
	};
	c->qp = ibv_create_qp(c->pd, &init); /* fails if the notes cannot go inline */
	if (!c->qp)
		die("ibv_create_qp");
	printf("device %s, GID index %d, notes inline\n", device_name(c->ctx), gid_index);

	qp_to_init(c->qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	for (uint64_t i = 0; i < SLOTS; i++)
		post_note_recv(c, i); /* before the peer can send anything */
	int sock = connect_qp(c->qp, COURSE_IB_PORT, gid_index, c->ring_mr, o->host, o->tcp_port,
			      &c->me, &c->peer);
	close(sock); /* the rest travels over RDMA */
	print_info("local", &c->me);
	print_info("peer ", &c->peer);
	if (c->peer.len < (uint32_t)SLOTS * SLOT_SIZE)
		die_rc("the peer's ring is too small", EINVAL);
}

static void teardown_pingpong(struct pingpong *c)
{
	int rc;

	release_all(c->qp, NULL, c->priv_mr, NULL, NULL);
	if ((rc = ibv_dereg_mr(c->ring_mr)))
		die_rc("ibv_dereg_mr", rc);
	free(c->priv); /* no region covers them any more */
	free(c->ring);
	if ((rc = ibv_destroy_cq(c->recv_cq)))
		die_rc("ibv_destroy_cq", rc);
	if ((rc = ibv_destroy_cq(c->send_cq)))
		die_rc("ibv_destroy_cq", rc);
	if ((rc = ibv_destroy_comp_channel(c->channel)))
		die_rc("ibv_destroy_comp_channel", rc);
	release_all(NULL, NULL, NULL, c->pd, c->ctx);
}

int main(int argc, char *argv[])
{
	struct options o;
	struct pingpong c = { 0 };

	parse_options(argc, argv, &o);
	setup(&c, &o);
	if (o.host)
		client(&c, ITERS, SIZE);
	else
		server(&c);
	teardown_pingpong(&c);
	printf("done\n");
	return 0;
}
