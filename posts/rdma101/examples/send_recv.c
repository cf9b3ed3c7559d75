/*
 * send_recv.c - RDMA 101, lesson 2.7: SEND and RECV between two processes.
 *
 * The server posts one receive per slot of a registered buffer; the client
 * sends three messages, the last one gathered from two scatter/gather
 * elements. The server prints what arrived in which slot.
 *
 * (What happens when the server posts no receive at all is break_it.c's
 * "rnr" mode, run in this lesson too.)
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 send_recv.c course.c -o send_recv -libverbs
 * Run:   ./send_recv [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./send_recv [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
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
	if (rc)
		die_rc("ibv_post_send", rc);
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	char *buf = alloc_buffer(SLOTS * SLOT_SIZE);
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
	if (!o.host)
		post_slots(qp, mr); /* before the peer can possibly send */

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, NULL, o.host, o.tcp_port, &mine, &peer);
	printf("connected to QP 0x%06" PRIx32 "\n", peer.qpn);

	struct ibv_wc wc;
	for (int i = 0; i < MESSAGES; i++) {
		if (o.host)
			send_message(qp, mr, i);
		if (wait_completion(cq, &wc))
			return 1;
		if (o.host)
			printf("SEND %d completed\n", i);
		else
			printf("slot %" PRIu64 ": %" PRIu32 " bytes: \"%s\"\n", wc.wr_id, wc.byte_len,
			       buf + wc.wr_id * SLOT_SIZE);
	}
	tcp_barrier(sock); /* neither side tears down while the other still works */
	close(sock);

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	printf("done\n");
	return 0;
}
