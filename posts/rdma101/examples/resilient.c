/*
 * resilient.c - RDMA 101, lesson 4.5.
 *
 * A client delivers numbered records to a server exactly once, through
 * failures. Each record is an RDMA WRITE with immediate into a ring slot of
 * the server; the immediate value carries the record's number. The server
 * applies records strictly in order, remembers how far it got (in a state
 * file, so that even a restarted server knows), ignores any record it has
 * applied before, and reposts a receive per record: receives are the credits
 * that keep the client from overwriting a slot the server has not read.
 *
 * When a completion fails, or none comes within the client's own deadline
 * (a QP can hang without failing), the client treats every record in flight as
 * "outcome unknown", waits until each of them has completed (with an error
 * or a flush: only then may their buffers be reused), destroys the QP,
 * waits for its own port if that went down, reconnects with a new QP and
 * asks the server what it has applied. It resends from there: a resent
 * WRITE lands in a slot the server has not consumed, so the replay is safe.
 * Pair it with faults: ip link set eth0 down, tc qdisc ... netem loss,
 * kill -9 of the server.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 resilient.c course.c -o resilient -libverbs
 * Run:   ./resilient [-d dev] [-g gid] [-p port] [-s state_file]                      (server)
 *        ./resilient [-d dev] [-g gid] [-p port] [-n records] [-i ms] [-t timeout]
 *                    [-r retry_cnt] server_host                                       (client)
 */
#define _POSIX_C_SOURCE 200809L /* getopt, nanosleep, clock_gettime */
#define _DEFAULT_SOURCE /* htobe64, be64toh: endian(3) */

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define REC 64      /* bytes in a record */
#define SLOTS 16    /* the server's ring, and the receives it keeps posted */
#define WINDOW 4    /* records the client keeps in flight */

struct settings {
	struct options o;
	int records, interval_ms, timeout, retry_cnt;
	double deadline; /* seconds without a completion before we give up ourselves */
	const char *state_file;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The least time an RC requester waits for an ACK: 4.096 us * 2^timeout (timeout 1 to 31). */
static double ack_timeout_s(int timeout)
{
	return 4.096e-6 * (double)(1ull << timeout);
}

/* Eight bytes over the TCP side channel, big-endian; -1 if the peer is gone. */
static int send_u64(int sock, uint64_t v)
{
	uint8_t b[8];

	for (int i = 7; i >= 0; i--, v >>= 8)
		b[i] = (uint8_t)v;
	return write(sock, b, 8) == 8 ? 0 : -1;
}

static int recv_u64(int sock, uint64_t *v)
{
	uint8_t b[8];
	size_t got = 0;

	while (got < 8) {
		ssize_t n = read(sock, b + got, 8 - got);

		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	*v = 0;
	for (int i = 0; i < 8; i++)
		*v = *v << 8 | b[i];
	return 0;
}

/* "record 7" or "records 7 to 9", then the rest of the line. */
static void say_records(uint64_t first, uint64_t last, const char *rest)
{
	if (first == last)
		printf("record %" PRIu64 "%s\n", first, rest);
	else
		printf("records %" PRIu64 " to %" PRIu64 "%s\n", first, last, rest);
}

/* Print every async event that is waiting; return the type of the last one (or -1). */
static int drain_events(struct ibv_context *ctx, int wait_ms)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	int last = -1;

	while (poll(&p, 1, wait_ms) > 0) {
		struct ibv_async_event ev;

		if (ibv_get_async_event(ctx, &ev))
			break;
		last = ev.event_type;
		printf("async event: %s\n", ibv_event_type_str(ev.event_type));
		ibv_ack_async_event(&ev);
		wait_ms = 0;
	}
	return last;
}

static enum ibv_port_state port_state(struct ibv_context *ctx)
{
	struct ibv_port_attr pa;
	int rc = ibv_query_port(ctx, COURSE_IB_PORT, &pa);

	if (rc)
		die_rc("ibv_query_port", rc);
	return pa.state;
}

/* Move a QP to the error state: its outstanding work requests complete as flushed. */
static void to_error(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE);

	if (rc)
		die_rc("ibv_modify_qp(ERR)", rc);
}

/* ---------------------------------------------------------------- server */

struct server {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *ring;
	uint64_t applied, duplicates, incarnation;
	int state_fd;
	int receives; /* posted and not yet completed */
};

static void post_receive(struct server *s, struct ibv_qp *qp)
{
	/* A WRITE with immediate consumes a receive but writes nothing into it. */
	struct ibv_recv_wr wr = { .wr_id = 0, .sg_list = NULL, .num_sge = 0 }, *bad;
	int rc = ibv_post_recv(qp, &wr, &bad);

	if (rc)
		die_rc("ibv_post_recv", rc);
	s->receives++;
}

/* Apply one record: in order, once. The state file says how far we got. */
static void apply(struct server *s, const struct ibv_wc *wc)
{
	uint64_t seq = ntohl(wc->imm_data), stamp;

	memcpy(&stamp, s->ring + (seq % SLOTS) * REC, sizeof(stamp));
	stamp = be64toh(stamp); /* the client wrote it big-endian */
	if (seq <= s->applied) {
		s->duplicates++;
		printf("record %" PRIu64 " arrived again: already applied, ignored\n", seq);
		return;
	}
	if (seq != s->applied + 1 || stamp != seq) {
		fprintf(stderr, "record %" PRIu64 " is out of order or torn (applied %" PRIu64 ")\n",
			seq, s->applied);
		exit(1);
	}
	s->applied = seq;
	if (s->state_fd >= 0 && pwrite(s->state_fd, &s->applied, sizeof(s->applied), 0) != sizeof(s->applied))
		die("pwrite(state file)");
}

/* Serve one connection until the client says it is done (1) or goes away (0). */
static int serve_connection(struct server *s, const struct settings *st, int conn)
{
	struct ibv_cq *cq = ibv_create_cq(s->ctx, 2 * SLOTS, NULL, NULL, 0);

	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = SLOTS, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(s->pd, &qa);

	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	s->receives = 0;
	for (int i = 0; i < SLOTS; i++)
		post_receive(s, qp);

	int gid = choose_gid(s->ctx, COURSE_IB_PORT, st->o.gid_index);
	int sock = tcp_listen_accept(st->o.tcp_port);
	struct conn_info mine, peer;

	local_info(qp, COURSE_IB_PORT, gid, s->mr, &mine);
	exchange_info(sock, &mine, &peer);
	if (send_u64(sock, s->incarnation) || send_u64(sock, s->applied))
		die("write to the client");
	qp_to_rtr(qp, COURSE_IB_PORT, gid, &mine, &peer);
	qp_to_rts(qp, &mine, &peer);
	tcp_barrier(sock);
	printf("connection %d: QPN 0x%06" PRIx32 ", rkey 0x%08" PRIx32 "; resuming after record %" PRIu64 "\n",
	       conn, mine.qpn, mine.rkey, s->applied);

	int done = 0;

	for (;;) {
		struct ibv_wc wc[SLOTS];
		int n = ibv_poll_cq(cq, SLOTS, wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		for (int i = 0; i < n; i++) {
			s->receives--;
			if (wc[i].status != IBV_WC_SUCCESS)
				continue; /* flushed: the connection is going away */
			apply(s, &wc[i]);
			post_receive(s, qp);
		}
		if (n > 0)
			continue;
		/* Nothing arrived: has the client said "done", or gone away? */
		struct pollfd p = { .fd = sock, .events = POLLIN };

		drain_events(s->ctx, 0);
		if (poll(&p, 1, 1) <= 0)
			continue;
		char c;

		if (read(sock, &c, 1) == 1 && c == 'D') {
			done = 1;
			if (write(sock, "D", 1) != 1)
				die("write to the client");
		} else {
			printf("connection %d: the client went away (its TCP connection closed)\n", conn);
		}
		break;
	}
	/* Flush what is still posted and apply anything that arrived before it. */
	to_error(qp);
	for (double end = now_s() + 5; s->receives > 0 && now_s() < end;) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (n == 1) {
			s->receives--;
			if (wc.status == IBV_WC_SUCCESS)
				apply(s, &wc);
		}
	}
	close(sock);
	release_all(qp, cq, NULL, NULL, NULL);
	return done;
}

static void run_server(const struct settings *st, struct ibv_context *ctx)
{
	struct server s = { .ctx = ctx, .state_fd = -1 };

	if (getrandom(&s.incarnation, sizeof(s.incarnation), 0) != sizeof(s.incarnation))
		die("getrandom");
	if (st->state_file) {
		s.state_fd = open(st->state_file, O_RDWR | O_CREAT, 0600);
		if (s.state_fd < 0)
			die(st->state_file);
		if (pread(s.state_fd, &s.applied, sizeof(s.applied), 0) != sizeof(s.applied))
			s.applied = 0; /* a new file */
	}
	printf("server incarnation 0x%016" PRIx64 ": %" PRIu64 " records applied before this start\n",
	       s.incarnation, s.applied);
	if (!(s.pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
	s.ring = alloc_buffer(SLOTS * REC);
	s.mr = ibv_reg_mr(s.pd, s.ring, SLOTS * REC, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!s.mr)
		die("ibv_reg_mr");
	for (int conn = 1; !serve_connection(&s, st, conn); conn++)
		;
	printf("done: %" PRIu64 " records applied in order, %" PRIu64 " duplicates ignored\n",
	       s.applied, s.duplicates);
	release_all(NULL, NULL, s.mr, s.pd, NULL);
	free(s.ring);
	if (s.state_fd >= 0)
		close(s.state_fd);
}

/* ---------------------------------------------------------------- client */

struct client {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *src;                /* WINDOW record buffers */
	uint64_t acked;           /* records 1..acked are known to be delivered */
	uint64_t next;            /* the next record to send */
	uint64_t incarnation;     /* of the server we last talked to */
	uint32_t rkey;            /* the server's rkey we last used */
	int connections;
	double posted_at[WINDOW]; /* when each record in flight was posted */
};

/* RTR -> RTS with this program's own timeout and retry count. */
static void client_to_rts(struct ibv_qp *qp, const struct settings *st, const struct conn_info *mine)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS, .sq_psn = mine->psn,
		.timeout = (uint8_t)st->timeout,     /* at least 4.096 us * 2^timeout per try */
		.retry_cnt = (uint8_t)st->retry_cnt, /* then retransmit, this many times */
		.rnr_retry = 7,                      /* the server reposts: wait for it */
		.max_rd_atomic = 1,
	};
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
					      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		die_rc("ibv_modify_qp(RTR -> RTS)", rc);
}

static void post_record(struct client *c, struct ibv_qp *qp, const struct conn_info *peer, uint64_t seq)
{
	char *src = c->src + (seq % WINDOW) * REC; /* free: its last record has completed */
	uint64_t stamp = htobe64(seq); /* big-endian: the server's byte order may differ (lesson 2.6) */

	memset(src, (int)(seq & 0xff), REC);
	memcpy(src, &stamp, sizeof(stamp));
	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = REC, .lkey = c->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = seq, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED, .imm_data = htonl((uint32_t)seq),
		.wr.rdma = { .remote_addr = peer->addr + (seq % SLOTS) * REC, .rkey = peer->rkey },
	};
	post_send_or_die(qp, &wr);
	c->posted_at[seq % WINDOW] = now_s();
}

/*
 * One connection: send until done (returns 1) or until a completion fails
 * (returns 0 once every record in flight has completed and the QP is gone).
 */
static int run_connection(struct client *c, const struct settings *st)
{
	int gid = choose_gid(c->ctx, COURSE_IB_PORT, st->o.gid_index);
	struct ibv_cq *cq = ibv_create_cq(c->ctx, 2 * WINDOW, NULL, NULL, 0);

	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = WINDOW, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(c->pd, &qa);

	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, 0);

	int sock = tcp_connect(st->o.host, st->o.tcp_port);
	struct conn_info mine, peer;
	uint64_t incarnation, applied;

	local_info(qp, COURSE_IB_PORT, gid, NULL, &mine);
	exchange_info(sock, &mine, &peer);
	if (recv_u64(sock, &incarnation) || recv_u64(sock, &applied)) {
		fprintf(stderr, "the server closed the connection\n");
		exit(1);
	}
	qp_to_rtr(qp, COURSE_IB_PORT, gid, &mine, &peer);
	client_to_rts(qp, st, &mine);
	tcp_barrier(sock);
	c->connections++;
	printf("connection %d: server QPN 0x%06" PRIx32 ", rkey 0x%08" PRIx32 "; it has applied %" PRIu64 " records\n",
	       c->connections, peer.qpn, peer.rkey, applied);
	if (c->connections > 1 && incarnation != c->incarnation)
		printf("the server restarted (new incarnation): the QPN and rkey from before are void\n");
	else if (c->connections > 1)
		printf("the same server (same incarnation): a new QPN, %s rkey\n",
		       peer.rkey == c->rkey ? "the same" : "a new");
	if (applied > c->acked)
		say_records(c->acked + 1, applied, " had arrived after all: now the outcome is known");
	if (applied < c->acked) /* delivered to the server's memory is not applied */
		say_records(applied + 1, c->acked, " completed here but had not been applied there");
	c->incarnation = incarnation;
	c->rkey = peer.rkey;
	c->acked = applied;
	c->next = applied + 1;
	if (c->connections > 1)
		printf("resending from record %" PRIu64 "\n", c->next);

	double due = now_s();
	int failed = 0, polled_error = 0;

	while (c->acked < (uint64_t)st->records && !failed) {
		while (c->next <= (uint64_t)st->records && c->next - c->acked - 1 < WINDOW && now_s() >= due) {
			post_record(c, qp, &peer, c->next++);
			due = now_s() + st->interval_ms / 1000.0;
		}
		struct ibv_wc wc;
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (n == 0) {
			/* Our own deadline, in case the QP neither completes nor fails. */
			uint64_t oldest = c->acked + 1;

			if (oldest < c->next && now_s() - c->posted_at[oldest % WINDOW] > st->deadline) {
				printf("record %" PRIu64 ": no completion within %.1f s: giving up on connection %d\n",
				       oldest, st->deadline, c->connections);
				failed = 1;
				break;
			}
			drain_events(c->ctx, 1); /* and sleep a millisecond: the CPU is shared */
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			printf("record %" PRIu64 ": %s, %.1f s after it was posted\n", wc.wr_id,
			       wc_status_name(wc.status), now_s() - c->posted_at[wc.wr_id % WINDOW]);
			failed = polled_error = 1;
			break;
		}
		c->acked = wc.wr_id; /* completions come in order */
		if (c->acked % 100 == 0)
			printf("record %" PRIu64 " acknowledged\n", c->acked);
	}
	if (!failed) {
		if (write(sock, "D", 1) != 1 || read(sock, (char[1]){ 0 }, 1) != 1)
			die("telling the server we are done");
		close(sock);
		release_all(qp, cq, NULL, NULL, NULL);
		return 1;
	}
	/*
	 * The failed record and everything behind it may or may not have
	 * arrived: the server will tell. Their buffers are ours again only once
	 * each has completed; after an error the rest complete as flushed.
	 */
	say_records(c->acked + 1, c->next - 1, ": outcome unknown");
	uint64_t left = c->next - 1 - c->acked - (uint64_t)polled_error;

	to_error(qp); /* after an error completion it is in error already */
	for (double end = now_s() + 10; left > 0 && now_s() < end;) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (n == 1 && wc.status != IBV_WC_WR_FLUSH_ERR)
			printf("record %" PRIu64 ": %s\n", wc.wr_id, wc_status_name(wc.status));
		left -= (uint64_t)n;
	}
	if (left > 0) {
		fprintf(stderr, "%" PRIu64 " requests never completed: their buffers cannot be reused\n", left);
		exit(1);
	}
	printf("every request of connection %d has completed: its buffers are free, the QP is destroyed\n",
	       c->connections);
	close(sock);
	release_all(qp, cq, NULL, NULL, NULL);
	return 0;
}

static void run_client(const struct settings *st, struct ibv_context *ctx)
{
	struct client c = { .ctx = ctx };

	if (!(c.pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
	c.src = alloc_buffer(WINDOW * REC);
	if (!(c.mr = ibv_reg_mr(c.pd, c.src, WINDOW * REC, IBV_ACCESS_LOCAL_WRITE)))
		die("ibv_reg_mr");
	printf("sending %d records, one every %d ms, at most %d in flight\n",
	       st->records, st->interval_ms, WINDOW);
	printf("QP timeout %d (at least %.1f ms a try), retry_cnt %d: a dead peer shows after %.1f s or more\n",
	       st->timeout, 1e3 * ack_timeout_s(st->timeout), st->retry_cnt,
	       ack_timeout_s(st->timeout) * (st->retry_cnt + 1));
	printf("our own deadline: no completion for %.1f s ends a connection\n", st->deadline);
	double start = now_s();

	while (!run_connection(&c, st)) {
		if (port_state(ctx) != IBV_PORT_ACTIVE) {
			printf("the local port is down: waiting for it to come back\n");
			for (double end = now_s() + 60; port_state(ctx) != IBV_PORT_ACTIVE;) {
				if (now_s() > end)
					die_rc("the port stayed down", ENETDOWN);
				drain_events(ctx, 1000);
			}
		}
		printf("reconnecting\n");
	}
	drain_events(ctx, 0);
	printf("all %d records acknowledged in %.1f s, over %d connection%s\n",
	       st->records, now_s() - start, c.connections, c.connections == 1 ? "" : "s");
	release_all(NULL, NULL, c.mr, c.pd, NULL);
	free(c.src);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d device] [-g gid_index] [-p port] [-s state_file]               (server)\n"
		"       %s [-d device] [-g gid_index] [-p port] [-n records] [-i ms]\n"
		"          [-t timeout] [-r retry_cnt] host                                   (client)\n",
		prog, prog);
	exit(2);
}

int main(int argc, char *argv[])
{
	struct settings st = { .o = { .gid_index = -1, .tcp_port = COURSE_TCP_PORT },
			       .records = 300, .interval_ms = 10, .timeout = 16, .retry_cnt = 6 };
	int opt;

	while ((opt = getopt(argc, argv, "d:g:p:s:n:i:t:r:")) != -1) {
		switch (opt) {
		case 'd': st.o.device = optarg; break;
		case 'g': st.o.gid_index = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': st.o.tcp_port = (int)number("-p", optarg, 1, 65535); break;
		case 's': st.state_file = optarg; break;
		case 'n': st.records = (int)number("-n", optarg, 1, INT_MAX); break;
		case 'i': st.interval_ms = (int)number("-i", optarg, 0, INT_MAX); break;
		case 't': st.timeout = (int)number("-t", optarg, 1, 31); break;
		case 'r': st.retry_cnt = (int)number("-r", optarg, 0, 7); break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc - 1)
		usage(argv[0]);
	/* Twice what the transport itself may take to give up, plus a second. */
	st.deadline = 2 * ack_timeout_s(st.timeout) * (st.retry_cnt + 1) + 1;
	st.o.host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(st.o.device);

	if (st.o.host)
		run_client(&st, ctx);
	else
		run_server(&st, ctx);
	release_all(NULL, NULL, NULL, NULL, ctx);
	return 0;
}
