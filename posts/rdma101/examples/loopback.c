/*
 * loopback.c - RDMA 101, lesson 2.5: the first bytes move.
 *
 * One RC queue pair, connected to itself, works on one registered buffer:
 *   a SEND from region A lands in a receive posted on region D;
 *   an RDMA WRITE copies region A into region B;
 *   an RDMA READ copies region B into region C.
 * Each step waits for its completions and prints what the target memory now
 * holds. Last, it posts far more WRITEs than the send queue was granted, in
 * a single call, to show that a full queue refuses a post instead of waiting.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 loopback.c course.c -o loopback -libverbs
 * Run:   ./loopback [-d device] [-g gid_index]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"

#define REGION 1024 /* the buffer holds four regions: A, B, C, D */
#define A 0
#define B (1 * REGION)
#define C (2 * REGION)
#define D (3 * REGION)
#define MAX_CHAIN 512

static struct ibv_sge sge_at(struct ibv_mr *mr, size_t offset, uint32_t len)
{
	return (struct ibv_sge){ .addr = (uintptr_t)mr->addr + offset, .length = len,
				 .lkey = mr->lkey };
}

/*
 * Wait for one completion on cq; stop the program if it failed. byte_len is
 * printed for receives and RDMA READs only: for a SEND or WRITE, some
 * providers (mlx5) leave it unset.
 */
static void expect(struct ibv_cq *cq, const char *what)
{
	struct ibv_wc wc;

	if (wait_completion(cq, &wc))
		exit(1);
	if (wc.opcode == IBV_WC_RECV || wc.opcode == IBV_WC_RDMA_READ)
		printf("  %s completed: %" PRIu32 " bytes\n", what, wc.byte_len);
	else
		printf("  %s completed\n", what);
}

int main(int argc, char *argv[])
{
	struct options o;
	int gid_index, rc;
	struct ibv_pd *pd = open_pd_from_args(argc, argv, &o, &gid_index);
	struct ibv_context *ctx = pd->context;

	char *buf = alloc_buffer(4 * REGION);
	/* The QP reads and writes this buffer as its own peer: all rights. */
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, 4 * REGION, IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("ibv_reg_mr");
	/* Separate CQs for the two queues, so each wait knows what it waits for. */
	struct ibv_cq *send_cq = ibv_create_cq(ctx, MAX_CHAIN, NULL, NULL, 0);
	struct ibv_cq *recv_cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	if (!send_cq || !recv_cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = send_cq, .recv_cq = recv_cq, .qp_type = IBV_QPT_RC,
		.sq_sig_all = 1, /* every send-side request completes visibly */
		.cap = { .max_send_wr = 16, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	struct conn_info self;
	local_info(qp, COURSE_IB_PORT, gid_index, mr, &self);
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	struct ibv_sge rsge = sge_at(mr, D, REGION);
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &rsge, .num_sge = 1 }, *rbad;
	if ((rc = ibv_post_recv(qp, &rwr, &rbad))) /* before anything can arrive */
		die_rc("ibv_post_recv", rc);
	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &self, &self);
	qp_to_rts(qp, &self, &self);
	printf("QP 0x%06" PRIx32 " on %s is connected to itself; send queue holds %" PRIu32 " WRs\n",
	       qp->qp_num, device_name(ctx), init.cap.max_send_wr);

	/* SEND: the receiver's posted buffer decides where the bytes land. */
	strcpy(buf + A, "hello, queue pair");
	struct ibv_sge s = sge_at(mr, A, (uint32_t)strlen(buf + A) + 1);
	struct ibv_send_wr wr = { .wr_id = 2, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND };
	post_send_or_die(qp, &wr);
	expect(send_cq, "SEND");
	expect(recv_cq, "RECV");
	printf("region D now holds \"%s\"\n", buf + D);

	/* WRITE: the initiator names the target address and rkey. */
	strcpy(buf + A, "placed by RDMA WRITE");
	s = sge_at(mr, A, (uint32_t)strlen(buf + A) + 1);
	wr = (struct ibv_send_wr){ .wr_id = 3, .sg_list = &s, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_WRITE,
				   .wr.rdma = { .remote_addr = self.addr + B, .rkey = self.rkey } };
	post_send_or_die(qp, &wr);
	expect(send_cq, "RDMA WRITE");
	printf("region B now holds \"%s\"\n", buf + B);

	/* READ: fetch region B into region C; the local side needs LOCAL_WRITE. */
	s = sge_at(mr, C, REGION);
	wr = (struct ibv_send_wr){ .wr_id = 4, .sg_list = &s, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_READ,
				   .wr.rdma = { .remote_addr = self.addr + B, .rkey = self.rkey } };
	post_send_or_die(qp, &wr);
	expect(send_cq, "RDMA READ");
	printf("region C now holds \"%s\"\n", buf + C);

	/* Four times the granted depth in one call: the queue fills, and then refuses. */
	uint32_t n = 4 * init.cap.max_send_wr;
	if (n > MAX_CHAIN) {
		fprintf(stderr, "send queue deeper than %d\n", MAX_CHAIN / 4);
		return 1;
	}
	static struct ibv_send_wr chain[MAX_CHAIN];
	s = sge_at(mr, A, 8);
	for (uint32_t i = 0; i < n; i++)
		chain[i] = (struct ibv_send_wr){
			.wr_id = 100 + i, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
			.wr.rdma = { .remote_addr = self.addr + B, .rkey = self.rkey },
			.next = i + 1 < n ? &chain[i + 1] : NULL,
		};
	struct ibv_send_wr *bad = NULL;
	rc = ibv_post_send(qp, chain, &bad);
	if (rc == 0 || !bad) {
		fprintf(stderr, "all %" PRIu32 " WRITEs fit in the send queue\n", n);
		return 1;
	}
	uint64_t accepted = bad->wr_id - 100;
	printf("posted %" PRIu32 " WRITEs in one call: %s at WRITE %" PRIu64
	       "; the %" PRIu64 " before it were queued\n", n, strerror(rc), accepted + 1, accepted);
	for (uint64_t i = 0; i < accepted; i++) {
		struct ibv_wc wc;

		if (wait_completion(send_cq, &wc))
			return 1;
	}
	printf("  all %" PRIu64 " queued WRITEs completed\n", accepted);

	release_all(qp, send_cq, NULL, NULL, NULL);
	release_all(NULL, recv_cq, mr, pd, ctx);
	free(buf);
	printf("released everything\n");
	return 0;
}
