/*
 * verbs_syscalls.c - RDMA 101, lesson 3.2.
 *
 * Calls the verbs of a small RDMA WRITE program in order (two WRITEs, each
 * polled until its completion arrives), and prints a line "== <verb>"
 * before each step. Run it under strace to see which verbs
 * enter the kernel and which run in the library alone: every system call
 * traced between two "==" lines belongs to the verb named by the first.
 * The QP is connected to itself, so one process and one device suffice.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 verbs_syscalls.c course.c -o verbs_syscalls -libverbs
 * Run:   strace -qq -s 0 -P /dev/infiniband/uverbs0 ./verbs_syscalls [device]
 */
#define _POSIX_C_SOURCE 200809L /* dprintf */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "course.h"

#define LEN 4096

/* Before each step; written straight to the file descriptor, so it is never held in a buffer. */
static void step(const char *what)
{
	dprintf(STDOUT_FILENO, "== %s\n", what);
}

static void check(int rc, const char *what)
{
	if (rc)
		die_rc(what, rc);
}

static void post_write(struct ibv_qp *qp, struct ibv_mr *mr, const struct conn_info *to)
{
	struct ibv_sge sge = { .addr = (uintptr_t)mr->addr, .length = LEN / 2, .lkey = mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = to->addr + LEN / 2, .rkey = to->rkey },
	}, *bad;
	check(ibv_post_send(qp, &wr, &bad), "ibv_post_send");
}

int main(int argc, char *argv[])
{
	step("ibv_get_device_list, ibv_open_device");
	struct ibv_context *ctx = open_device(argc > 1 ? argv[1] : NULL);
	step("ibv_query_port, ibv_query_gid_ex (choose_gid)");
	int gid = choose_gid(ctx, COURSE_IB_PORT, -1);

	step("ibv_alloc_pd");
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	void *buf = alloc_buffer(LEN);
	step("ibv_reg_mr");
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, LEN, IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	step("ibv_create_cq");
	struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	step("ibv_create_qp");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	step("ibv_modify_qp to INIT, RTR, RTS (ibv_query_port, ibv_query_device, ibv_query_gid_ex on the way)");
	struct conn_info me;
	local_info(qp, COURSE_IB_PORT, gid, mr, &me);
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	qp_to_rtr(qp, COURSE_IB_PORT, gid, &me, &me); /* the peer is this QP itself */
	qp_to_rts(qp, &me, &me);

	step("ibv_post_send: one RDMA WRITE");
	post_write(qp, mr, &me);
	step("ibv_poll_cq, called until the completion arrives");
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		return 1;
	step("ibv_post_send: another RDMA WRITE");
	post_write(qp, mr, &me);
	step("ibv_poll_cq, called until the completion arrives");
	if (wait_completion(cq, &wc))
		return 1;

	step("ibv_destroy_qp");
	check(ibv_destroy_qp(qp), "ibv_destroy_qp");
	step("ibv_destroy_cq");
	check(ibv_destroy_cq(cq), "ibv_destroy_cq");
	step("ibv_dereg_mr");
	check(ibv_dereg_mr(mr), "ibv_dereg_mr");
	free(buf);
	step("ibv_dealloc_pd");
	check(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	step("ibv_close_device");
	check(ibv_close_device(ctx) ? errno : 0, "ibv_close_device");
	step("done");
	return 0;
}
