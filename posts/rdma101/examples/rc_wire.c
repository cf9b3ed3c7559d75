/*
 * rc_wire.c - RDMA 101, lessons 3.1, 3.5 and 3.6.
 *
 * One RC connection between two processes, made to carry traffic you can
 * watch on the wire. The client moves COUNT messages of SIZE bytes to the
 * server, one at a time: RDMA WRITEs into the server's buffer (the
 * default) or SENDs into receives that the server posted. Every message is
 * signalled, and the client prints how and how fast it completed. Capture
 * the packets, drop some on purpose, and compare what the program saw with
 * what crossed the wire. The ACK timeout is 14 (about 67 ms), shorter than
 * course.c's default, so that retransmissions follow each other quickly.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 rc_wire.c course.c -o rc_wire -libverbs
 * Run:   ./rc_wire [options]          the server: prints a line, then waits
 *        ./rc_wire [options] SERVER   the client: connects and sends
 * Options (give both sides the same -s, -n and -o):
 *   -s SIZE     bytes per message, up to 1048576 (default 64)
 *   -n COUNT    messages, up to 1024 (default 1)
 *   -o OP       write or send (default write)
 *   -r RECVS    server: receives to post (default: COUNT for send, 0 for write)
 *   -g INDEX    GID index (default: chosen by choose_gid)
 *   -d DEVICE   RDMA device (default: the first)
 *   -p PORT     TCP port of the side channel (default 18515)
 */
#define _POSIX_C_SOURCE 200809L /* getopt, clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

struct wire_options {
	struct options common; /* -d, -g, -p and HOST, as every course program has them */
	uint32_t size, count;  /* -s, -n */
	int send, recvs;       /* -o send, -r */
};

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-s size] [-n count] [-o write|send] [-r recvs] "
		"[-g gid] [-d device] [-p port] [server]\n", prog);
	exit(1);
}

static struct wire_options parse(int argc, char *argv[])
{
	struct wire_options o = { .common = { .gid_index = -1, .tcp_port = COURSE_TCP_PORT },
				  .size = 64, .count = 1, .recvs = -1 };
	int c;

	while ((c = getopt(argc, argv, "s:n:o:r:g:d:p:")) != -1) {
		switch (c) {
		case 's': o.size = (uint32_t)number("-s", optarg, 1, 1 << 20); break;
		case 'n': o.count = (uint32_t)number("-n", optarg, 1, 1024); break;
		case 'o':
			if (strcmp(optarg, "write") && strcmp(optarg, "send"))
				usage(argv[0]);
			o.send = strcmp(optarg, "send") == 0;
			break;
		case 'r': o.recvs = (int)number("-r", optarg, 0, 1024); break;
		case 'g': o.common.gid_index = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'd': o.common.device = optarg; break;
		case 'p': o.common.tcp_port = (int)number("-p", optarg, 1, 65535); break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc)
		o.common.host = argv[optind++];
	if (optind < argc)
		usage(argv[0]);
	if (o.recvs < 0) /* only the server receives */
		o.recvs = o.send && !o.common.host ? (int)o.count : 0;
	return o;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void post_recv(struct ibv_qp *qp, struct ibv_mr *mr, uint32_t offset, uint32_t len,
		      uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)mr->addr + offset, .length = len,
			       .lkey = mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(qp, &wr, &bad);

	if (rc)
		die_rc("ibv_post_recv", rc);
}

/* Message i is SIZE bytes of one letter, so the server can tell them apart. */
static char letter(uint32_t i)
{
	return (char)('A' + i % 26);
}

static int run_server(const struct wire_options *o, struct ibv_cq *cq,
		      struct ibv_mr *mr, int sock)
{
	struct ibv_wc wc;
	uint32_t received = 0, intact = 0;

	for (int i = 0; i < o->recvs && received < o->count; i++) {
		if (wait_completion(cq, &wc))
			break;
		printf("server: receive %" PRIu64 " completed: %" PRIu32 " bytes\n",
		       wc.wr_id, wc.byte_len);
		received++;
	}
	tcp_barrier(sock); /* the client has finished */
	const char *buf = mr->addr;
	for (uint32_t i = 0; i < o->count; i++) {
		uint32_t j = 0;

		while (j < o->size && buf[(size_t)i * o->size + j] == letter(i))
			j++;
		intact += j == o->size;
	}
	printf("server: %" PRIu32 " of %" PRIu32 " messages arrived intact\n", intact, o->count);
	return intact == o->count ? 0 : 1;
}

static int run_client(const struct wire_options *o, struct ibv_qp *qp, struct ibv_cq *cq,
		      struct ibv_mr *mr, const struct conn_info *peer, int sock)
{
	const char *op = o->send ? "SEND" : "WRITE";
	struct ibv_wc wc;
	uint32_t done = 0;

	for (uint32_t i = 0; i < o->count; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)mr->addr, .length = o->size,
				       .lkey = mr->lkey };
		struct ibv_send_wr wr = {
			.wr_id = i + 1, .sg_list = &sge, .num_sge = 1,
			.opcode = o->send ? IBV_WR_SEND : IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		if (!o->send) {
			wr.wr.rdma.remote_addr = peer->addr + (uint64_t)i * o->size;
			wr.wr.rdma.rkey = peer->rkey;
		}
		memset(mr->addr, letter(i), o->size);
		double start = now_us();
		int rc = ibv_post_send(qp, &wr, &bad);
		if (rc)
			die_rc("ibv_post_send", rc);
		int failed = wait_completion(cq, &wc);
		printf("client: %s %" PRIu32 " of %" PRIu32 ", %" PRIu32 " bytes: %s after %.0f us\n",
		       op, i + 1, o->count, o->size, wc_status_name(wc.status), now_us() - start);
		if (failed)
			break; /* the QP is in the error state: later requests would be flushed */
		done++;
	}
	tcp_barrier(sock);
	printf("client: %" PRIu32 " of %" PRIu32 " %ss completed\n", done, o->count, op);
	return done == o->count ? 0 : 1;
}

int main(int argc, char *argv[])
{
	struct wire_options o = parse(argc, argv);
	const char *host = o.common.host; /* set on the client only */
	struct ibv_context *ctx = open_device(o.common.device);
	int gid = choose_gid(ctx, COURSE_IB_PORT, o.common.gid_index);

	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	/* The server keeps every message apart; the client refills one buffer. */
	size_t len = host ? o.size : (size_t)o.size * o.count;
	void *buf = alloc_buffer(len);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
				       (host ? 0 : IBV_ACCESS_REMOTE_WRITE));
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, (int)o.count + 1, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = o.recvs ? (uint32_t)o.recvs : 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, host ? 0 : IBV_ACCESS_REMOTE_WRITE);
	for (int i = 0; i < o.recvs; i++) /* before connecting: the client may send at once */
		post_recv(qp, mr, (uint32_t)i * o.size % (uint32_t)len, o.size, (uint64_t)i + 1);

	struct conn_info mine, peer;
	course_ack_timeout = 14; /* about 67 ms a try: retransmissions close enough to watch */
	int sock = connect_qp(qp, COURSE_IB_PORT, gid, host ? NULL : mr, host,
			      o.common.tcp_port, &mine, &peer);
	print_info(host ? "client: local " : "server: local ", &mine);
	print_info(host ? "client: remote" : "server: remote", &peer);

	int status = host ? run_client(&o, qp, cq, mr, &peer, sock) : run_server(&o, cq, mr, sock);

	close(sock);
	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	return status;
}
