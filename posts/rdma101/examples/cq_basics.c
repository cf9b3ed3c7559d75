/*
 * cq_basics.c - RDMA 101, lesson 2.2.
 *
 * A completion queue at work. The program creates a CQ with a completion
 * channel, arms it once before any work exists, then gives it something to
 * report: a QP connected to itself (lessons 2.4 and 2.5 explain that part)
 * receives a SEND of its own. It sleeps until the channel reports an event,
 * re-arms the CQ and only then drains it. Finally it posts four RDMA WRITEs
 * of which only the last asks for a completion, and counts what comes back.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 cq_basics.c course.c -o cq_basics -libverbs
 * Run:   ./cq_basics [-d device] [-g gid_index]
 */
#define _POSIX_C_SOURCE 200809L /* poll */

#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"

#define CQ_SIZE 16
#define MSG "a message for the receive queue"

static const char *opcode_name(enum ibv_wc_opcode op)
{
	switch (op) {
	case IBV_WC_SEND:       return "IBV_WC_SEND";
	case IBV_WC_RDMA_WRITE: return "IBV_WC_RDMA_WRITE";
	case IBV_WC_RDMA_READ:  return "IBV_WC_RDMA_READ";
	case IBV_WC_RECV:       return "IBV_WC_RECV";
	default:                return "another opcode";
	}
}

/* Take every completion that is in the CQ now; return how many there were. */
static int drain(struct ibv_cq *cq)
{
	struct ibv_wc wc[CQ_SIZE];
	int n, total = 0;

	while ((n = ibv_poll_cq(cq, CQ_SIZE, wc)) > 0) {
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				/* Only wr_id, status, qp_num and vendor_err are valid here. */
				fprintf(stderr, "wr_id %" PRIu64 ": %s\n", wc[i].wr_id,
					wc_status_name(wc[i].status));
				exit(1);
			}
			printf("  wr_id %" PRIu64 ": %s", wc[i].wr_id, opcode_name(wc[i].opcode));
			if (wc[i].opcode & IBV_WC_RECV) /* byte_len: defined for receives */
				printf(", %" PRIu32 " bytes", wc[i].byte_len);
			printf("\n");
		}
		total += n;
	}
	if (n < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	return total;
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	printf("opened device %s\n", device_name(ctx));

	struct ibv_comp_channel *channel = ibv_create_comp_channel(ctx);
	if (!channel)
		die("ibv_create_comp_channel");
	struct ibv_cq *cq = ibv_create_cq(ctx, CQ_SIZE, NULL, channel, 0);
	if (!cq)
		die("ibv_create_cq");
	printf("created a CQ: asked for %d entries, got %d\n", CQ_SIZE, cq->cqe);
	printf("polled the new CQ: %d completions\n", drain(cq));

	/* Arm before any work exists, so the first completion raises an event. */
	int rc = ibv_req_notify_cq(cq, 0);
	if (rc)
		die_rc("ibv_req_notify_cq", rc);
	printf("armed the CQ\n");

	/* Something to complete: a QP connected to itself, with one buffer. */
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	char *buf = alloc_buffer(4096);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, 4096,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	struct conn_info self;
	local_info(qp, COURSE_IB_PORT, gid_index, mr, &self);
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &self, &self);
	qp_to_rts(qp, &self, &self);

	/* A receive into the second half of buf, then a SEND from the first. */
	struct ibv_sge rsge = { .addr = (uintptr_t)buf + 2048, .length = 2048, .lkey = mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &rsge, .num_sge = 1 }, *rbad;
	if ((rc = ibv_post_recv(qp, &rwr, &rbad)))
		die_rc("ibv_post_recv", rc);
	strcpy(buf, MSG);
	struct ibv_sge ssge = { .addr = (uintptr_t)buf, .length = sizeof(MSG), .lkey = mr->lkey };
	struct ibv_send_wr swr = { .wr_id = 2, .sg_list = &ssge, .num_sge = 1,
				   .opcode = IBV_WR_SEND }; /* not signalled */
	post_send_or_die(qp, &swr);
	printf("posted a receive (wr_id 1) and an unsignalled SEND (wr_id 2)\n");

	/* Sleep until the channel has an event, at most five seconds. */
	struct pollfd pfd = { .fd = channel->fd, .events = POLLIN };
	if (poll(&pfd, 1, 5000) != 1) {
		fprintf(stderr, "no completion event within 5 seconds\n");
		return 1;
	}
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	if (ibv_get_cq_event(channel, &ev_cq, &ev_ctx))
		die("ibv_get_cq_event");
	ibv_ack_cq_events(ev_cq, 1);
	printf("woke up: the channel reported an event for %s CQ\n", ev_cq == cq ? "our" : "another");

	/* Re-arm first, then drain: nothing that arrives from now on is missed. */
	if ((rc = ibv_req_notify_cq(cq, 0)))
		die_rc("ibv_req_notify_cq", rc);
	printf("re-armed the CQ, then drained it:\n");
	int got = drain(cq);
	printf("%d completion; the receive buffer holds \"%s\"\n", got, buf + 2048);

	/* Four WRITEs to our own buffer in one call; only the last is signalled. */
	struct ibv_sge wsge = { .addr = (uintptr_t)buf, .length = 8, .lkey = mr->lkey };
	struct ibv_send_wr w[4];
	for (int i = 0; i < 4; i++)
		w[i] = (struct ibv_send_wr){
			.wr_id = 10 + (uint64_t)i, .sg_list = &wsge, .num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = i == 3 ? IBV_SEND_SIGNALED : 0,
			.wr.rdma = { .remote_addr = self.addr + 1024, .rkey = self.rkey },
			.next = i < 3 ? &w[i + 1] : NULL,
		};
	post_send_or_die(qp, w);
	printf("posted 4 RDMA WRITEs (wr_id 10-13), only wr_id 13 signalled\n");
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		return 1;
	printf("  wr_id %" PRIu64 ": %s\n", wc.wr_id, opcode_name(wc.opcode));
	printf("polled again: %d completions\n", drain(cq));

	/* Every event taken with ibv_get_cq_event() was acknowledged, so the
	 * CQ can be destroyed; the channel goes after the CQ that uses it. */
	release_all(qp, cq, mr, pd, NULL);
	free(buf);
	if ((rc = ibv_destroy_comp_channel(channel)))
		die_rc("ibv_destroy_comp_channel", rc);
	release_all(NULL, NULL, NULL, NULL, ctx);
	printf("released everything\n");
	return 0;
}
