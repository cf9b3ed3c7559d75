/*
 * imm_inline.c - RDMA 101, lesson 2.8: immediate data and inline sends.
 *
 * The client sends, on one RC QP:
 *   1. an inline SEND with immediate, straight from a stack buffer;
 *   2. an RDMA WRITE with immediate into the server's buffer;
 *   3. a SEND with immediate and no payload at all;
 * and finally tries an inline SEND one byte longer than the QP allows,
 * which ibv_post_send() must refuse. The server prints each completion.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 imm_inline.c course.c -o imm_inline -libverbs
 * Run:   ./imm_inline [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./imm_inline [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define RECVS 3
#define SLOT_SIZE 64
#define WANT_INLINE 64
#define WRITE_TEXT "placed by RDMA WRITE with immediate"

/* Post one request; returns ibv_post_send()'s errno value. */
static int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad_wr = NULL;
	return ibv_post_send(qp, wr, &bad_wr);
}

static void must_post(struct ibv_qp *qp, struct ibv_send_wr *wr, const char *what)
{
	int rc = post_send(qp, wr);
	if (rc)
		die_rc(what, rc);
}

static void client(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
		   const struct conn_info *peer, uint32_t max_inline)
{
	struct ibv_wc wc;

	/* 1: inline, from the stack; no lkey, buffer reusable at once. */
	char hello[] = "hello, inline";
	struct ibv_sge s1 = { .addr = (uintptr_t)hello, .length = sizeof(hello) };
	struct ibv_send_wr w1 = {
		.wr_id = 1, .sg_list = &s1, .num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htonl(1),
		.send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED,
	};
	must_post(qp, &w1, "ibv_post_send (inline SEND with immediate)");
	memset(hello, 'X', sizeof(hello) - 1); /* allowed: the data was copied */
	if (wait_completion(cq, &wc))
		exit(1);
	printf("1: inline SEND with immediate 1: completed\n");

	/* 2: WRITE with immediate; the immediate says how many bytes. */
	strcpy(mr->addr, WRITE_TEXT);
	struct ibv_sge s2 = { .addr = (uintptr_t)mr->addr, .length = sizeof(WRITE_TEXT), .lkey = mr->lkey };
	struct ibv_send_wr w2 = {
		.wr_id = 2, .sg_list = &s2, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM, .imm_data = htonl(sizeof(WRITE_TEXT)),
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
	must_post(qp, &w2, "ibv_post_send (WRITE with immediate)");
	if (wait_completion(cq, &wc))
		exit(1);
	printf("2: RDMA WRITE with immediate %zu: completed\n", sizeof(WRITE_TEXT));

	/* 3: no payload at all: the immediate is the whole message. */
	struct ibv_send_wr w3 = {
		.wr_id = 3, .num_sge = 0,
		.opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htonl(0xC0FFEE),
		.send_flags = IBV_SEND_SIGNALED,
	};
	must_post(qp, &w3, "ibv_post_send (empty SEND with immediate)");
	if (wait_completion(cq, &wc))
		exit(1);
	printf("3: SEND with immediate 0xc0ffee and no payload: completed\n");

	/* 4: one byte more than the QP allows inline: refused at post time. */
	char *big = alloc_buffer(max_inline + 1);
	struct ibv_sge s4 = { .addr = (uintptr_t)big, .length = max_inline + 1 };
	struct ibv_send_wr w4 = {
		.wr_id = 4, .sg_list = &s4, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED,
	};
	int rc = post_send(qp, &w4);
	if (rc == 0) { /* not an errno: die() would print a stale one */
		fprintf(stderr, "an inline SEND of %" PRIu32 " bytes was accepted\n", max_inline + 1);
		exit(1);
	}
	printf("4: inline SEND of %" PRIu32 " bytes refused by ibv_post_send: %s\n",
	       max_inline + 1, strerror(rc));
	free(big);
}

static void server(struct ibv_cq *cq, struct ibv_mr *recv_mr, const char *exposed)
{
	for (int i = 0; i < RECVS; i++) {
		struct ibv_wc wc;
		if (wait_completion(cq, &wc))
			exit(1);
		uint32_t imm = (wc.wc_flags & IBV_WC_WITH_IMM) ? ntohl(wc.imm_data) : 0;
		if (wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM)
			printf("RECV_RDMA_WITH_IMM: imm %" PRIu32 ", buffer holds \"%s\"\n", imm, exposed);
		else
			printf("RECV: %" PRIu32 " bytes, imm 0x%" PRIx32 ", slot %" PRIu64 " holds \"%s\"\n",
			       wc.byte_len, imm, wc.wr_id,
			       wc.byte_len ? (char *)recv_mr->addr + wc.wr_id * SLOT_SIZE : "");
	}
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
	/* Receive slots (private) and one buffer the peer may WRITE into. */
	char *slots = alloc_buffer(RECVS * SLOT_SIZE), *exposed = alloc_buffer(SLOT_SIZE);
	struct ibv_mr *recv_mr = ibv_reg_mr(pd, slots, RECVS * SLOT_SIZE, IBV_ACCESS_LOCAL_WRITE);
	struct ibv_mr *mr = ibv_reg_mr(pd, exposed, SLOT_SIZE,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!recv_mr || !mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, 2 * RECVS, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = RECVS, .max_send_sge = 1,
			 .max_recv_sge = 1, .max_inline_data = WANT_INLINE },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	/* ibv_create_qp() wrote back what the device granted. */
	printf("max_inline_data: asked for %d, granted %" PRIu32 "\n", WANT_INLINE,
	       init.cap.max_inline_data);

	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	for (int i = 0; !o.host && i < RECVS; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)slots + (uint64_t)i * SLOT_SIZE,
				       .length = SLOT_SIZE, .lkey = recv_mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1 }, *bad;
		int rc = ibv_post_recv(qp, &wr, &bad);
		if (rc)
			die_rc("ibv_post_recv", rc);
	}
	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);

	if (o.host)
		client(qp, cq, mr, &peer, init.cap.max_inline_data);
	else
		server(cq, recv_mr, exposed);
	tcp_barrier(sock);
	close(sock);

	release_all(qp, cq, mr, NULL, NULL);
	int rc = ibv_dereg_mr(recv_mr); /* the second region, before its PD */
	if (rc)
		die_rc("ibv_dereg_mr", rc);
	release_all(NULL, NULL, NULL, pd, ctx);
	free(slots);
	free(exposed);
	printf("done\n");
	return 0;
}
