/*
 * qp_cost.c - RDMA 101, lesson 4.4.
 *
 * What a queue pair costs: creates RC QPs in growing batches (all sharing
 * one CQ), connects each to itself (RESET -> INIT -> RTR -> RTS), and after
 * each batch reports the time per QP for both steps and the queue memory the
 * process has mapped from the device, per QP. A program with one QP per peer
 * pays this for every peer.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 qp_cost.c course.c -o qp_cost -libverbs
 * Run:   ./qp_cost [-d device] [-g gid_index] [-n max_qps]
 */
#define _POSIX_C_SOURCE 200809L /* getopt, clock_gettime */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define DEPTH 64 /* send and receive queue entries of each QP */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytes of this process's address space mapped from /dev/infiniband/uverbs*: the queues, on rxe. */
static double uverbs_mapped_kib(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	double kib = 0;

	if (!f)
		die("/proc/self/maps");
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (strstr(line, "/dev/infiniband/uverbs") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			kib += (double)(end - start) / 1024;
	}
	fclose(f);
	return kib;
}

int main(int argc, char *argv[])
{
	const char *dev = NULL;
	int gid_req = -1, max = 256, opt;

	while ((opt = getopt(argc, argv, "d:g:n:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'g': gid_req = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'n': max = (int)number("-n", optarg, 1, INT_MAX); break;
		default:
			fprintf(stderr, "usage: %s [-d device] [-g gid_index] [-n max_qps]\n", argv[0]);
			return 2;
		}
	}
	struct ibv_context *ctx = open_device(dev);
	int gid = choose_gid(ctx, COURSE_IB_PORT, gid_req);
	struct ibv_device_attr da;
	int rc = ibv_query_device(ctx, &da);

	if (rc)
		die_rc("ibv_query_device", rc);
	if (max > da.max_qp)
		max = da.max_qp;
	printf("device %s: max_qp %d, max_qp_wr %d, max_cq %d, max_srq %d\n",
	       device_name(ctx), da.max_qp, da.max_qp_wr, da.max_cq, da.max_srq);
	printf("each QP: RC, %d send and %d receive entries; one CQ for all; each connected to itself\n",
	       DEPTH, DEPTH);

	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	if (!pd)
		die("ibv_alloc_pd");
	/* No work is ever posted, so no completion ever needs room in it. */
	struct ibv_cq *cq = ibv_create_cq(ctx, DEPTH, NULL, NULL, 0);

	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp **qps = calloc((size_t)max, sizeof(*qps));

	if (!qps)
		die("calloc");
	/* One description serves every QP: only the QP number differs. */
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct conn_info self;
	double base = uverbs_mapped_kib();
	int made = 0;

	printf("QPs   create (us a QP)   connect (us a QP)   queues mapped (KiB a QP)\n");
	for (int batch = 16; made < max; batch *= 4) {
		int target = batch < max ? batch : max, first = made;
		double t0 = now_s();

		for (; made < target; made++) {
			struct ibv_qp_init_attr a = qa; /* ibv_create_qp writes the granted caps back */

			if (!(qps[made] = ibv_create_qp(pd, &a)))
				die("ibv_create_qp");
		}
		double t1 = now_s();

		for (int i = first; i < made; i++) {
			qp_to_init(qps[i], COURSE_IB_PORT, 0);
			if (i == 0)
				local_info(qps[0], COURSE_IB_PORT, gid, NULL, &self);
			self.qpn = qps[i]->qp_num;
			qp_to_rtr(qps[i], COURSE_IB_PORT, gid, &self, &self);
			qp_to_rts(qps[i], &self, &self);
		}
		double t2 = now_s(), n = made - first;

		printf("%-5d %-18.1f %-19.1f %.1f\n", made, 1e6 * (t1 - t0) / n, 1e6 * (t2 - t1) / n,
		       (uverbs_mapped_kib() - base) / made);
	}
	double t0 = now_s();

	for (int i = 0; i < made; i++)
		release_all(qps[i], NULL, NULL, NULL, NULL);
	printf("destroyed %d QPs in %.3f s\n", made, now_s() - t0);
	free(qps);
	release_all(NULL, cq, NULL, pd, ctx);
	return 0;
}
