/*
 * ring.c - RDMA 101, lesson 2.9: a landing-zone ring with write-then-notify
 * and credits, the core of a transfer engine.
 *
 * The server exposes a ring of SLOTS slots. The client writes each record
 * into the next slot with a plain RDMA WRITE, then notifies the server with a
 * zero-byte RDMA WRITE with immediate whose immediate value is the record's
 * sequence number. It may only have SLOTS records unconsumed: one credit per
 * slot. The server consumes a record, reposts the receive, and gives the
 * credit back with a zero-byte inline SEND with immediate (the number of
 * records it has consumed so far).
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 ring.c course.c -o ring -libverbs
 * Run:   ./ring [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./ring [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define SLOTS 4
#define SLOT_SIZE 64
#define RECORDS 12 /* three times round the ring */

/* A receive with no buffer: it only waits for an immediate value. */
static void post_notice_recv(struct ibv_qp *qp)
{
	struct ibv_recv_wr wr = { .wr_id = 0, .num_sge = 0 }, *bad_wr = NULL;
	int rc = ibv_post_recv(qp, &wr, &bad_wr);
	if (rc)
		die_rc("ibv_post_recv", rc);
}

static void post(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad_wr = NULL;
	int rc = ibv_post_send(qp, wr, &bad_wr);
	if (rc)
		die_rc("ibv_post_send", rc);
}

/* Take one completion from cq and return its immediate value. */
static uint32_t next_imm(struct ibv_cq *cq)
{
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		exit(1);
	return ntohl(wc.imm_data);
}

/* Client: write record seq into its slot, then notify, in one post. */
static void write_record(struct ibv_qp *qp, struct ibv_mr *mr, const struct conn_info *peer,
			 uint32_t seq)
{
	uint32_t slot = seq % SLOTS;
	char *src = (char *)mr->addr + slot * SLOT_SIZE; /* ours until the WRITE completes */
	int len = snprintf(src, SLOT_SIZE, "record %" PRIu32, seq) + 1;

	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = (uint32_t)len, .lkey = mr->lkey };
	struct ibv_send_wr note = {
		.wr_id = seq, .num_sge = 0,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM, .imm_data = htonl(seq),
		.send_flags = IBV_SEND_SIGNALED, /* its completion covers the data WRITE */
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
	struct ibv_send_wr data = {
		.wr_id = seq, .sg_list = &sge, .num_sge = 1, .next = &note,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = 0, /* unsignalled */
		.wr.rdma = { .remote_addr = peer->addr + slot * SLOT_SIZE, .rkey = peer->rkey },
	};
	post(qp, &data);
}

static void client(struct ibv_qp *qp, struct ibv_cq *scq, struct ibv_cq *rcq,
		   struct ibv_mr *mr, const struct conn_info *peer, uint32_t records)
{
	uint32_t consumed = 0; /* what the server has reported back */

	for (uint32_t seq = 0; seq < records; seq++) {
		while (seq - consumed == SLOTS) { /* no credit: wait for one */
			consumed = next_imm(rcq);
			post_notice_recv(qp);
		}
		/* Slot seq % SLOTS of our source buffer is free again only once
		 * the previous WRITE from it completed: wait for that first. */
		if (seq >= SLOTS) {
			struct ibv_wc wc;
			if (wait_completion(scq, &wc))
				exit(1);
		}
		write_record(qp, mr, peer, seq);
		printf("record %" PRIu32 " -> slot %" PRIu32 "\n", seq, seq % SLOTS);
	}
	for (uint32_t i = 0; i < (records < SLOTS ? records : SLOTS); i++) {
		struct ibv_wc wc;
		if (wait_completion(scq, &wc))
			exit(1); /* the last notifications */
	}
	while (consumed < records) {
		consumed = next_imm(rcq);
		post_notice_recv(qp);
	}
	printf("%" PRIu32 " records written, %" PRIu32 " consumed by the server\n", records, consumed);
}

static void server(struct ibv_qp *qp, struct ibv_cq *scq, struct ibv_cq *rcq,
		   const char *ring, uint32_t records)
{
	for (uint32_t consumed = 0; consumed < records;) {
		uint32_t seq = next_imm(rcq);
		const char *rec = ring + (seq % SLOTS) * SLOT_SIZE;
		/* The notice completed, so the WRITE before it has been placed. */
		printf("slot %" PRIu32 ": \"%s\" (notice %" PRIu32 ")\n", seq % SLOTS, rec, seq);
		post_notice_recv(qp);
		consumed++;

		/* Give the credit back: an inline, zero-byte SEND with immediate. */
		struct ibv_send_wr credit = {
			.wr_id = consumed, .num_sge = 0,
			.opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htonl(consumed),
			.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
		};
		post(qp, &credit);
		struct ibv_wc wc;
		if (wait_completion(scq, &wc))
			exit(1);
	}
	printf("consumed %" PRIu32 " records\n", records);
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
	/* Server: the ring the peer writes into. Client: the source of its records. */
	char *ring = alloc_buffer(SLOTS * SLOT_SIZE);
	struct ibv_mr *mr = ibv_reg_mr(pd, ring, SLOTS * SLOT_SIZE,
				       o.host ? 0 : IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *scq = ibv_create_cq(ctx, SLOTS, NULL, NULL, 0);
	struct ibv_cq *rcq = ibv_create_cq(ctx, SLOTS, NULL, NULL, 0);
	if (!scq || !rcq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2 * SLOTS, .max_recv_wr = SLOTS, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, o.host ? 0 : IBV_ACCESS_REMOTE_WRITE);
	for (int i = 0; i < SLOTS; i++)
		post_notice_recv(qp); /* notices (server) or credits (client) */

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	if (o.host) {
		printf("ring of %d slots of %d bytes at the server; %d records\n", SLOTS, SLOT_SIZE,
		       RECORDS);
		client(qp, scq, rcq, mr, &peer, RECORDS);
	} else {
		server(qp, scq, rcq, ring, RECORDS);
	}
	tcp_barrier(sock);
	close(sock);

	release_all(qp, rcq, mr, NULL, NULL);
	release_all(NULL, scq, NULL, pd, ctx);
	free(ring);
	printf("done\n");
	return 0;
}
