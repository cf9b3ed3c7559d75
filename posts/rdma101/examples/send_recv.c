/*
 * send_recv.c - RDMA 101, lesson 2.7: SEND and RECV between two processes.
 *
 * The server posts one receive per slot of a registered buffer; the client
 * sends three messages, the last one gathered from two scatter/gather
 * elements. The server prints what arrived in which slot.
 *
 * With -r the server posts no receives at all: the client's first SEND meets
 * "receiver not ready" (RNR) NAKs, retries rnr_retry times and fails with
 * IBV_WC_RNR_RETRY_EXC_ERR.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 send_recv.c course.c -o send_recv -libverbs
 * Run:   ./send_recv [-r] [-d DEV] [-g GID] [-p PORT]          server
 *        ./send_recv [-d DEV] [-g GID] [-p PORT] HOST           client
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define SLOTS 4
#define SLOT_SIZE 64
#define MESSAGES 3

/* Post one receive per slot, in a single call; wr_id is the slot number. */
static void post_slots(struct ibv_qp *qp, struct ibv_mr *mr)
{
	struct ibv_sge sge[SLOTS];
	struct ibv_recv_wr wr[SLOTS], *bad_wr = NULL;

	for (int i = 0; i < SLOTS; i++) {
		sge[i] = (struct ibv_sge){
			.addr = (uintptr_t)mr->addr + (uint64_t)i * SLOT_SIZE,
			.length = SLOT_SIZE,
			.lkey = mr->lkey,
		};
		wr[i] = (struct ibv_recv_wr){
			.wr_id = (uint64_t)i,
			.sg_list = &sge[i],
			.num_sge = 1,
			.next = i + 1 < SLOTS ? &wr[i + 1] : NULL,
		};
	}
	int rc = ibv_post_recv(qp, wr, &bad_wr);
	if (rc) {
		fprintf(stderr, "ibv_post_recv stopped at slot %" PRIu64 ": %s\n",
			bad_wr ? bad_wr->wr_id : UINT64_MAX, strerror(rc));
		exit(1);
	}
	printf("posted %d receives of %d bytes\n", SLOTS, SLOT_SIZE);
}

/* Client: SEND message i; the last one is gathered from two pieces. */
static void send_message(struct ibv_qp *qp, struct ibv_mr *mr, int i)
{
	char *buf = (char *)mr->addr + (size_t)i * SLOT_SIZE;
	struct ibv_sge sge[2];
	int nsge = 1;

	if (i < MESSAGES - 1) {
		int len = snprintf(buf, SLOT_SIZE, "message %d", i) + 1;
		sge[0] = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = (uint32_t)len, .lkey = mr->lkey };
	} else {
		/* Two separate pieces of memory, sent as one message. */
		strcpy(buf, "gathered ");
		strcpy(buf + 32, "from two pieces");
		sge[0] = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = 9, .lkey = mr->lkey };
		sge[1] = (struct ibv_sge){ .addr = (uintptr_t)buf + 32, .length = 16, .lkey = mr->lkey };
		nsge = 2;
	}
	struct ibv_send_wr wr = {
		.wr_id = (uint64_t)i,
		.sg_list = sge,
		.num_sge = nsge,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad_wr = NULL;
	int rc = ibv_post_send(qp, &wr, &bad_wr);
	if (rc) {
		fprintf(stderr, "ibv_post_send: %s\n", strerror(rc));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	int gid_arg = -1, port = COURSE_TCP_PORT, no_recv = 0, opt;

	while ((opt = getopt(argc, argv, "rd:g:p:")) != -1) {
		switch (opt) {
		case 'r': no_recv = 1; break;
		case 'd': dev = optarg; break;
		case 'g': gid_arg = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-r] [-d DEV] [-g GID] [-p PORT] [HOST]\n", argv[0]);
			return 1;
		}
	}
	const char *host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(dev);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, gid_arg);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	char *buf = calloc(SLOTS, SLOT_SIZE);
	if (!buf)
		die("calloc");
	/* The device writes incoming messages here: local write access. */
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, SLOTS * SLOT_SIZE, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, 2 * SLOTS, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SLOTS, .max_recv_wr = SLOTS,
			 .max_send_sge = 2, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	qp_to_init(qp, COURSE_IB_PORT, 0);
	if (!host && !no_recv)
		post_slots(qp, mr); /* before the peer can possibly send */
	if (!host && no_recv)
		printf("posting no receives (-r)\n");

	int sock = host ? tcp_connect(host, port) : tcp_listen_accept(port);
	struct conn_info me, peer;
	local_info(qp, COURSE_IB_PORT, gid_index, NULL, &me);
	exchange_info(sock, &me, &peer);
	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &me, &peer);
	qp_to_rts(qp, &me, &peer);
	tcp_barrier(sock);
	print_info("local", &me);
	print_info("peer ", &peer);

	int failed = 0;
	if (host) {
		for (int i = 0; i < MESSAGES && !failed; i++) {
			struct ibv_wc wc;
			send_message(qp, mr, i);
			if (wait_completion(cq, &wc)) { /* it printed the status */
				printf("SEND %d failed\n", i);
				failed = 1;
			} else {
				printf("SEND %d completed\n", i);
			}
		}
	} else if (!no_recv) {
		for (int i = 0; i < MESSAGES; i++) {
			struct ibv_wc wc;
			if (wait_completion(cq, &wc))
				exit(1);
			const char *msg = buf + wc.wr_id * SLOT_SIZE;
			printf("slot %" PRIu64 ": %" PRIu32 " bytes: \"%s\"\n", wc.wr_id, wc.byte_len, msg);
		}
	}
	tcp_barrier(sock); /* neither side tears down while the other still works */
	printf(failed ? "done, with a failed SEND\n" : "done\n");

	close(sock);
	if (ibv_destroy_qp(qp) || ibv_destroy_cq(cq) || ibv_dereg_mr(mr) || ibv_dealloc_pd(pd))
		die("releasing resources");
	free(buf);
	if (ibv_close_device(ctx))
		die("ibv_close_device");
	return failed;
}
