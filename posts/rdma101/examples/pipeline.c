/*
 * pipeline.c - RDMA 101, lesson 2.13: many operations in flight.
 *
 * The client RDMA WRITEs COUNT messages into the server's buffer, keeping
 * up to WINDOW of them in flight and asking for a completion only every
 * SIGNAL-th one, and measures each combination. First it shows what happens
 * when one post asks for more than the send queue holds.
 *
 * Soft-RoCE runs the transport in kernel software, so its numbers are
 * software numbers: compare the rows with each other, not with a NIC.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 pipeline.c course.c -o pipeline -libverbs
 * Run:   ./pipeline [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./pipeline [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define SQ_DEPTH 64
#define COUNT 1000 /* WRITEs per row */
#define SIZE 4096  /* bytes per WRITE */

static const struct { int window, signal; } runs[] = {
	{ 1, 1 }, { 16, 1 }, { 16, 8 }, { 64, 16 },
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct ibv_send_wr write_wr(struct ibv_sge *sge, const struct conn_info *peer, uint64_t i)
{
	return (struct ibv_send_wr){
		.wr_id = i, .sg_list = sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
}

/*
 * One list of 4 x depth WRITEs, all signalled: the post stops at the first
 * request the send queue has no room for, and returns that one in bad_wr.
 */
static void overflow(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_sge *sge,
		     const struct conn_info *peer, uint32_t depth)
{
	uint32_t n = 4 * depth;
	struct ibv_send_wr *wr = alloc_buffer(n * sizeof(*wr)), *bad_wr = NULL;

	for (uint32_t i = 0; i < n; i++) {
		wr[i] = write_wr(sge, peer, i);
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	int rc = ibv_post_send(qp, wr, &bad_wr);
	if (!rc || !bad_wr) {
		printf("one post of %" PRIu32 " WRITEs was accepted whole\n", n);
		exit(1);
	}
	uint64_t accepted = bad_wr->wr_id; /* everything before bad_wr was posted */
	printf("one post of %" PRIu32 " WRITEs, max_send_wr %" PRIu32 ": %s at #%" PRIu64 "\n",
	       n, depth, strerror(rc), accepted);
	for (uint64_t i = 0; i < accepted; i++) {
		struct ibv_wc wc;
		if (wait_completion(cq, &wc))
			exit(1);
	}
	printf("the %" PRIu64 " accepted WRITEs all completed\n", accepted);
	free(wr);
}

/* COUNT WRITEs, at most `window` in flight, a completion every `signal`. */
static double run(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_sge *sge,
		  const struct conn_info *peer, uint64_t count, int window, int signal)
{
	uint64_t posted = 0, done = 0;
	double start = now();

	while (done < count) {
		while (posted < count && posted - done < (uint64_t)window) {
			struct ibv_send_wr wr = write_wr(sge, peer, posted), *bad_wr = NULL;
			/* Signal every `signal`-th request, the last one, and whichever
			 * fills the window, so that a completion always comes back. */
			if ((posted + 1) % (uint64_t)signal == 0 || posted + 1 == count ||
			    posted + 1 - done == (uint64_t)window)
				wr.send_flags = IBV_SEND_SIGNALED;
			int rc = ibv_post_send(qp, &wr, &bad_wr);
			if (rc)
				die_rc("ibv_post_send", rc);
			posted++;
		}
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(cq, 16, wc);
		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		if (n == 0)
			sched_yield(); /* Soft-RoCE needs this CPU to make progress */
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				printf("WRITE %" PRIu64 " failed: %s\n", wc[i].wr_id,
				       ibv_wc_status_str(wc[i].status));
				exit(1);
			}
			done = wc[i].wr_id + 1; /* it covers every earlier request */
		}
	}
	return now() - start;
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
	char *buf = alloc_buffer(SIZE);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, SIZE, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, 4 * SQ_DEPTH, NULL, NULL, 0); /* see overflow() */
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SQ_DEPTH, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	if (o.host) {
		/* Every WRITE sends the same bytes to the same place: only the rate matters. */
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = SIZE, .lkey = mr->lkey };
		overflow(qp, cq, &sge, &peer, init.cap.max_send_wr);
		printf("%d WRITEs of %d bytes per row (Soft-RoCE: software numbers)\n", COUNT, SIZE);
		for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			double t = run(qp, cq, &sge, &peer, COUNT, runs[r].window, runs[r].signal);
			printf("window %2d, signal every %2d: %8.1f WRITEs/s, %6.1f MB/s\n",
			       runs[r].window, runs[r].signal, COUNT / t, (double)COUNT * SIZE / t / 1e6);
		}
	}
	tcp_barrier(sock);
	close(sock);

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	printf("done\n");
	return 0;
}
