/*
 * break_it.c - RDMA 101, lesson 2.12: break a connection on purpose and watch
 * what the completions say.
 *
 * Run the server and the client with the same MODE:
 *   rkey    the client WRITEs with a wrong rkey     -> remote access error
 *   local   the client READs into memory registered without local write
 *                                                   -> local protection error
 *   rnr     the server posts no receive; the client SENDs
 *                                                   -> RNR retry counter exceeded
 *   vanish  the server destroys its QP after connecting and exits; the client WRITEs
 *                                                   -> transport retry counter exceeded
 * Behind the failing request the client posts a SEND, and it has receives
 * posted (except in local mode): all of them come back as "Work Request
 * Flushed Error".
 * The client exits with status 1 (a work request failed), the server with 0.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 break_it.c course.c -o break_it -libverbs
 * Run:   ./break_it MODE [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./break_it MODE [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define BUF 64
#define RECVS 2

enum { WR_BAD = 1, WR_BEHIND = 2 };

static const char *what[] = { [WR_BAD] = "the request we broke", [WR_BEHIND] = "the SEND behind it" };

/* Poll until n completions have arrived, printing each, for 20 seconds at most. */
static void report(struct ibv_cq *cq, int n, const char *queue)
{
	time_t deadline = time(NULL) + 20;

	for (int got = 0; got < n;) {
		struct ibv_wc wc;
		int k = ibv_poll_cq(cq, 1, &wc);
		if (k < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (k == 0) {
			if (time(NULL) > deadline)
				die_rc("no completion within 20 seconds", ETIMEDOUT);
			continue;
		}
		got++;
		/* On error only wr_id, status, qp_num and vendor_err are valid. */
		if (queue[0] == 's')
			printf("send queue, wr_id %" PRIu64 " (%s): %s\n", wc.wr_id, what[wc.wr_id],
			       ibv_wc_status_str(wc.status));
		else
			printf("receive queue, wr_id %" PRIu64 ": %s\n", wc.wr_id,
			       ibv_wc_status_str(wc.status));
	}
}

/* The client: wait for the server to vanish if asked, then post the broken
 * request with a SEND behind it, and report every completion. */
static void client(struct ibv_qp *qp, struct ibv_cq *scq, struct ibv_cq *rcq, struct ibv_mr *mr,
		   const struct conn_info *peer, int sock, const char *mode, int recvs)
{
	char *buf = mr->addr;

	if (!strcmp(mode, "vanish")) {
		char c;
		if (read(sock, &c, 1) != 0) /* 0 = end of file: the server is gone */
			die("expected the server to close the connection");
		printf("the server has gone\n");
	}

	/* The broken request, and a SEND right behind it. */
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = BUF, .lkey = mr->lkey };
	struct ibv_send_wr behind = {
		.wr_id = WR_BEHIND, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr bad = {
		.wr_id = WR_BAD, .sg_list = &sge, .num_sge = 1, .next = &behind,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
	if (!strcmp(mode, "rkey")) {
		bad.wr.rdma.rkey = peer->rkey + 1;
		printf("posting an RDMA WRITE with rkey 0x%" PRIx32 " instead of 0x%" PRIx32 "\n",
		       bad.wr.rdma.rkey, peer->rkey);
	} else if (!strcmp(mode, "local")) {
		bad.opcode = IBV_WR_RDMA_READ;
		printf("posting an RDMA READ into memory registered without IBV_ACCESS_LOCAL_WRITE\n");
	} else if (!strcmp(mode, "rnr")) {
		bad.opcode = IBV_WR_SEND;
		printf("posting a SEND; the server has no receive posted\n");
	} else {
		printf("posting an RDMA WRITE to the vanished server\n");
	}
	struct ibv_send_wr *bad_wr = NULL;
	int rc = ibv_post_send(qp, &bad, &bad_wr);
	if (rc)
		die_rc("ibv_post_send", rc);
	report(scq, 2, "send");
	report(rcq, recvs, "recv");
}

static int known_mode(const char *m)
{
	return m && (!strcmp(m, "rkey") || !strcmp(m, "local") || !strcmp(m, "rnr") ||
		     !strcmp(m, "vanish"));
}

int main(int argc, char *argv[])
{
	/* The mode comes first; what follows are the usual options. */
	const char *mode = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	if (mode) {
		argv[1] = argv[0];
		argc--, argv++;
	}
	struct options o;
	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device); /* the device first, as always */
	if (!known_mode(mode)) {
		fprintf(stderr, "usage: %s rkey|local|rnr|vanish [-d device] [-g gid_index] "
			"[-p tcp_port] [HOST]\n", argv[0]);
		return 1;
	}
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	char *buf = alloc_buffer((RECVS + 2) * BUF);
	/* "local" registers the client's memory WITHOUT local write on purpose. */
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	if (o.host && !strcmp(mode, "local"))
		access = 0;
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, (RECVS + 2) * BUF, access);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *scq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	struct ibv_cq *rcq = ibv_create_cq(ctx, RECVS, NULL, NULL, 0);
	if (!scq || !rcq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = RECVS, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);

	/* No receives on an "rnr" server, nor in memory without local write. */
	int recvs = (!o.host && !strcmp(mode, "rnr")) || (o.host && !strcmp(mode, "local")) ? 0 : RECVS;
	for (int i = 0; i < recvs; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf + (uint64_t)(2 + i) * BUF, .length = BUF,
				       .lkey = mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1 }, *bad;
		int rc = ibv_post_recv(qp, &wr, &bad);
		if (rc)
			die_rc("ibv_post_recv", rc);
	}
	if (!o.host)
		printf("mode %s: server posted %d receives\n", mode, recvs);

	struct conn_info mine, peer;
	course_ack_timeout = 14; /* about 67 ms a try: the retry loop ends within a second */
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	if (o.host)
		client(qp, scq, rcq, mr, &peer, sock, mode, recvs);
	else if (!strcmp(mode, "rkey"))
		report(rcq, RECVS, "recv"); /* our QP went to ERR too */
	if (strcmp(mode, "vanish"))
		tcp_barrier(sock);

	/* The QP goes before the socket: when a vanishing server's socket closes, the client
	 * takes it as the sign that nothing answers any more, so nothing may. */
	release_all(qp, rcq, mr, NULL, NULL);
	release_all(NULL, scq, NULL, pd, ctx);
	if (!o.host && !strcmp(mode, "vanish"))
		printf("server: QP destroyed; closing the connection without a word\n");
	close(sock);
	free(buf);
	printf(o.host ? "a work request failed: exit status 1\n" : "server done\n");
	return o.host ? 1 : 0;
}
