/*
 * qp_caps.c - RDMA 101, lesson 2.3.
 *
 * Creates one queue pair of each everyday transport type (RC, UC, UD),
 * asking each for the same queue sizes, and prints the QP number and the
 * sizes the device actually granted. Then it asks for a send queue deeper
 * than the device allows, and shows the refusal.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 qp_caps.c course.c -o qp_caps -libverbs
 * Run:   ./qp_caps [-d device]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "course.h"

static const struct ibv_qp_cap wanted = {
	.max_send_wr = 64,     /* work requests outstanding on the send queue */
	.max_recv_wr = 64,     /* ... and on the receive queue */
	.max_send_sge = 2,     /* scatter/gather elements per send request */
	.max_recv_sge = 2,     /* ... and per receive request */
	.max_inline_data = 64, /* bytes a send may carry inside the request */
};

/* Create a QP of this type; print what was granted; return it (or NULL). */
static struct ibv_qp *create(struct ibv_pd *pd, struct ibv_cq *cq,
			     enum ibv_qp_type type, const char *name)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = type,
		.cap = wanted,
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);

	if (!qp) {
		fprintf(stderr, "%s: ibv_create_qp failed (%s)\n", name, strerror(errno));
		return NULL;
	}
	/* ibv_create_qp() wrote the granted sizes back into init.cap. */
	printf("%s QP 0x%06" PRIx32 ": send WRs %" PRIu32 ", recv WRs %" PRIu32
	       ", send SGEs %" PRIu32 ", recv SGEs %" PRIu32 ", inline %" PRIu32 " bytes\n",
	       name, qp->qp_num, init.cap.max_send_wr, init.cap.max_recv_wr,
	       init.cap.max_send_sge, init.cap.max_recv_sge, init.cap.max_inline_data);
	return qp;
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	struct ibv_device_attr da;
	int rc = ibv_query_device(ctx, &da);

	if (rc)
		die_rc("ibv_query_device", rc);
	printf("device %s: at most %d WRs per queue, %d SGEs per request\n",
	       device_name(ctx), da.max_qp_wr, da.max_sge);
	printf("asking each QP for %" PRIu32 " WRs per queue, %" PRIu32 " SGEs per request"
	       " and %" PRIu32 " inline bytes per send\n",
	       wanted.max_send_wr, wanted.max_send_sge, wanted.max_inline_data);

	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	/*
	 * One CQ may serve every queue of every QP. Nothing is posted here, so
	 * 16 entries will do; QPs that post need room for every completion their
	 * queues can have outstanding (lesson 2.2).
	 */
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");

	struct ibv_qp *qps[3] = {
		create(pd, cq, IBV_QPT_RC, "RC"),
		create(pd, cq, IBV_QPT_UC, "UC"),
		create(pd, cq, IBV_QPT_UD, "UD"),
	};

	/* A request beyond the device's limit fails; nothing is rounded down. */
	struct ibv_qp_init_attr too_deep = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = wanted,
	};
	too_deep.cap.max_send_wr = (uint32_t)da.max_qp_wr + 1;
	struct ibv_qp *bad = ibv_create_qp(pd, &too_deep);
	if (bad) {
		fprintf(stderr, "a send queue of %d WRs was accepted\n", da.max_qp_wr + 1);
		return 1;
	}
	printf("RC QP with %d send WRs: refused (%s)\n", da.max_qp_wr + 1, strerror(errno));

	int failed = !qps[0] || !qps[1] || !qps[2];
	release_all(qps[2], NULL, NULL, NULL, NULL);
	release_all(qps[1], NULL, NULL, NULL, NULL);
	release_all(qps[0], cq, NULL, pd, ctx);
	printf("destroyed the QPs, the CQ and the PD; closed the device\n");
	return failed;
}
