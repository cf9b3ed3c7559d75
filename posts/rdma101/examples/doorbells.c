/*
 * doorbells.c - RDMA 101, lesson 3.4.
 *
 * The same 64 RDMA WRITEs posted two ways on a QP connected to itself:
 *   each: one ibv_post_send call per WRITE, every WRITE signalled, so 64
 *         doorbells and 64 completions;
 *   list: one ibv_post_send call with a list of 64 WRITEs, every 16th
 *         signalled, so one doorbell and 4 completions.
 * It prints what it posted, what it polled and how long it took; with
 * "both" it runs each way ROUNDS times, alternating, and reports the fastest
 * of each, since a single run on a busy machine can be far off. Run one way
 * under `strace -c` to count the doorbells that Soft-RoCE turns into system
 * calls.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 doorbells.c course.c -o doorbells -libverbs
 * Run:   ./doorbells [each|list|both] [device]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "course.h"

#define WRITES 64
#define SIGNAL_EVERY 16
#define MSG 64
#define ROUNDS 5

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* WRITE i copies bytes [i*MSG, (i+1)*MSG) of the first half to the second half. */
static void prepare(struct ibv_send_wr *wr, struct ibv_sge *sge, struct ibv_mr *mr,
		    const struct conn_info *me, int i, int signalled)
{
	*sge = (struct ibv_sge){ .addr = (uintptr_t)mr->addr + (size_t)i * MSG,
				 .length = MSG, .lkey = mr->lkey };
	*wr = (struct ibv_send_wr){
		.wr_id = (uint64_t)i, .sg_list = sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = signalled ? IBV_SEND_SIGNALED : 0,
		.wr.rdma = { .remote_addr = me->addr + (WRITES + i) * MSG, .rkey = me->rkey },
	};
}

/* Post the 64 WRITEs one way and poll their completions; returns the time taken, in us. */
static double run(int list, struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
		  const struct conn_info *me)
{
	struct ibv_send_wr wrs[WRITES], *bad;
	struct ibv_sge sges[WRITES];
	struct ibv_wc wc;
	int expected = 0, rc;

	for (int i = 0; i < WRITES; i++) {
		int signalled = !list || (i + 1) % SIGNAL_EVERY == 0;

		prepare(&wrs[i], &sges[i], mr, me, i, signalled);
		expected += signalled;
		if (list && i > 0)
			wrs[i - 1].next = &wrs[i]; /* chain them: one call posts all */
	}
	double start = now_us();
	if (list) {
		if ((rc = ibv_post_send(qp, &wrs[0], &bad)))
			die_rc("ibv_post_send", rc);
	} else {
		for (int i = 0; i < WRITES; i++)
			if ((rc = ibv_post_send(qp, &wrs[i], &bad)))
				die_rc("ibv_post_send", rc);
	}
	/* An unsignalled WRITE is finished when a later signalled one completes. */
	for (int i = 0; i < expected; i++)
		if (wait_completion(cq, &wc))
			exit(1);
	return now_us() - start;
}

static void report(int list, double us, int rounds)
{
	int posts = list ? 1 : WRITES, polled = list ? WRITES / SIGNAL_EVERY : WRITES;

	printf("%s: %d WRITEs, %d ibv_post_send call%s, %d completions polled, %.0f us",
	       list ? "list" : "each", WRITES, posts, posts == 1 ? "" : "s", polled, us);
	if (rounds > 1)
		printf(" (fastest of %d)", rounds);
	printf("\n");
}

int main(int argc, char *argv[])
{
	const char *mode = argc > 1 ? argv[1] : "both";

	if (strcmp(mode, "each") && strcmp(mode, "list") && strcmp(mode, "both")) {
		fprintf(stderr, "usage: %s [each|list|both] [device]\n", argv[0]);
		return 1;
	}
	struct ibv_context *ctx = open_device(argc > 2 ? argv[2] : NULL);
	int gid = choose_gid(ctx, COURSE_IB_PORT, -1);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	size_t len = 2 * WRITES * MSG;
	void *buf = alloc_buffer(len);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, WRITES, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	/* sq_sig_all = 0: only requests flagged IBV_SEND_SIGNALED complete visibly. */
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
		.cap = { .max_send_wr = WRITES, .max_recv_wr = 1, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	struct conn_info me;
	local_info(qp, COURSE_IB_PORT, gid, mr, &me);
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	qp_to_rtr(qp, COURSE_IB_PORT, gid, &me, &me); /* connected to itself */
	qp_to_rts(qp, &me, &me);

	int do_each = strcmp(mode, "list") != 0, do_list = strcmp(mode, "each") != 0;
	int rounds = do_each && do_list ? ROUNDS : 1;
	double each = 1e18, list = 1e18;

	for (int r = 0; r < rounds; r++) {
		if (do_each) {
			double t = run(0, qp, cq, mr, &me);
			each = t < each ? t : each;
		}
		if (do_list) {
			double t = run(1, qp, cq, mr, &me);
			list = t < list ? t : list;
		}
	}
	if (do_each)
		report(0, each, rounds);
	if (do_list)
		report(1, list, rounds);

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	return 0;
}
