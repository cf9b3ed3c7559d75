/*
 * qp_states.c - RDMA 101, lesson 2.4.
 *
 * Walks an RC queue pair through its states by connecting it to itself:
 * the "peer" in every transition is the QP's own number, PSN and GID. It
 * prints the port's GID table and the entry chosen for addressing, asks the
 * device for the QP's state after every step, tries one transition the
 * state machine forbids, and ends with the two transitions that abort and
 * recycle a QP: to ERR and back to RESET.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 qp_states.c course.c -o qp_states -libverbs
 * Run:   ./qp_states [-d device] [-g gid_index]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"

static const char *const state_names[] = {
	[IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT", [IBV_QPS_RTR] = "RTR",
	[IBV_QPS_RTS] = "RTS",     [IBV_QPS_SQD] = "SQD",   [IBV_QPS_SQE] = "SQE",
	[IBV_QPS_ERR] = "ERR",
};

/* Ask the device, not our own bookkeeping, which state the QP is in. */
static void show_state(struct ibv_qp *qp, const char *step)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	int rc = ibv_query_qp(qp, &attr, IBV_QP_STATE, &init);

	if (rc)
		die_rc("ibv_query_qp", rc);
	printf("%-24s the QP is in %s\n", step,
	       attr.qp_state <= IBV_QPS_ERR ? state_names[attr.qp_state] : "?");
}

/* The port's GID table: index, type and address of every valid entry. */
static void show_gids(struct ibv_context *ctx, uint8_t port, int chosen)
{
	struct ibv_port_attr pa;
	int rc = ibv_query_port(ctx, port, &pa);

	if (rc)
		die_rc("ibv_query_port", rc);
	for (int i = 0; i < pa.gid_tbl_len; i++) {
		static const char *const types[] = { "IB", "RoCE v1", "RoCE v2" };
		struct ibv_gid_entry e;
		char text[46];

		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0))
			continue; /* an empty slot */
		format_gid(&e.gid, text);
		printf("GID %d: %-30s %-8s%s\n", i, text,
		       e.gid_type <= IBV_GID_TYPE_ROCE_V2 ? types[e.gid_type] : "?",
		       i == chosen ? " <- chosen" : "");
	}
	if (chosen < 0)
		printf("no GID chosen: InfiniBand addressing by LID\n");
}

/* Only the state changes: legal from RTS to ERR, and from any state to RESET. */
static void move_to(struct ibv_qp *qp, enum ibv_qp_state state, const char *step)
{
	struct ibv_qp_attr attr = { .qp_state = state };
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE);

	if (rc)
		die_rc(step, rc);
	show_state(qp, step);
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	printf("device %s, port %d\n", device_name(ctx), COURSE_IB_PORT);
	show_gids(ctx, COURSE_IB_PORT, gid_index);

	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	show_state(qp, "ibv_create_qp:");

	/* Connected to itself: our own record plays the peer's part. */
	struct conn_info self;
	local_info(qp, COURSE_IB_PORT, gid_index, NULL, &self);
	print_info("self:", &self);

	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	show_state(qp, "RESET -> INIT:");

	/* Skipping RTR is not a legal transition: the call fails, nothing changes. */
	struct ibv_qp_attr skip = { .qp_state = IBV_QPS_RTS, .sq_psn = self.psn };
	int rc = ibv_modify_qp(qp, &skip, IBV_QP_STATE | IBV_QP_SQ_PSN);
	if (rc == 0) {
		fprintf(stderr, "INIT -> RTS was accepted\n");
		return 1;
	}
	printf("INIT -> RTS refused:     %s\n", strerror(rc));
	show_state(qp, "after the refusal:");

	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &self, &self);
	show_state(qp, "INIT -> RTR:");
	qp_to_rts(qp, &self, &self);
	show_state(qp, "RTR -> RTS:");

	/* What the device now holds for the send side's timers and limits. */
	struct ibv_qp_attr attr;
	if ((rc = ibv_query_qp(qp, &attr, IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
					  IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC |
					  IBV_QP_PATH_MTU, &init)))
		die_rc("ibv_query_qp", rc);
	printf("timeout %u, retry_cnt %u, rnr_retry %u, max_rd_atomic %u, path MTU %d\n",
	       (unsigned)attr.timeout, (unsigned)attr.retry_cnt, (unsigned)attr.rnr_retry,
	       (unsigned)attr.max_rd_atomic, 128 << attr.path_mtu);

	move_to(qp, IBV_QPS_ERR, "RTS -> ERR:");
	move_to(qp, IBV_QPS_RESET, "ERR -> RESET:");

	release_all(qp, cq, NULL, pd, ctx);
	printf("released the QP, the CQ, the PD and the device\n");
	return 0;
}
