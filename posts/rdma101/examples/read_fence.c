/*
 * read_fence.c - RDMA 101, lesson 2.10: RDMA READ, read depth and the fence.
 *
 * The server exposes a buffer and does nothing else. The client
 *   1. asks its QP for the read depth that connecting it chose;
 *   2. posts READS reads of CHUNK bytes each in one call, twice what the
 *      depth allows at once, and checks every byte that came back;
 *   3. posts a READ of a mailbox followed by a fenced RDMA WRITE that
 *      overwrites the same bytes: the fence guarantees that the READ returns
 *      the old contents;
 *   4. reads the mailbox again and sees the new contents.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 read_fence.c course.c -o read_fence -libverbs
 * Run:   ./read_fence [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./read_fence [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define READS 32
#define CHUNK 4096
#define MAILBOX 64                    /* the first bytes of the buffer */
#define BUF_SIZE (MAILBOX + READS * CHUNK)

static void post(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad_wr = NULL;
	int rc = ibv_post_send(qp, wr, &bad_wr);
	if (rc) {
		fprintf(stderr, "ibv_post_send failed at wr_id %" PRIu64 ": %s\n",
			bad_wr ? bad_wr->wr_id : 0, strerror(rc));
		exit(1);
	}
}

static struct ibv_send_wr rdma_wr(enum ibv_wr_opcode op, struct ibv_sge *sge, uint64_t remote,
				  uint32_t rkey, uint64_t wr_id)
{
	return (struct ibv_send_wr){
		.wr_id = wr_id, .sg_list = sge, .num_sge = 1, .opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = remote, .rkey = rkey },
	};
}

static void client(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
		   const struct conn_info *peer, uint8_t depth)
{
	char *local = mr->addr;
	struct ibv_wc wc;

	/* 2: READS reads in one list; at most `depth` are on the wire at once. */
	struct ibv_sge sge[READS];
	struct ibv_send_wr wr[READS];
	for (int i = 0; i < READS; i++) {
		uint64_t off = MAILBOX + (uint64_t)i * CHUNK;
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)local + off, .length = CHUNK, .lkey = mr->lkey };
		wr[i] = rdma_wr(IBV_WR_RDMA_READ, &sge[i], peer->addr + off, peer->rkey, (uint64_t)i);
		wr[i].next = i + 1 < READS ? &wr[i + 1] : NULL;
	}
	post(qp, wr);
	for (int i = 0; i < READS; i++)
		if (wait_completion(cq, &wc))
			exit(1);
	for (size_t off = MAILBOX; off < BUF_SIZE; off++)
		if (local[off] != (char)('a' + off % 26)) {
			printf("byte %zu differs after the READs\n", off);
			exit(1);
		}
	printf("%d READs of %d bytes in one post, depth %u: all completed, data matches\n",
	       READS, CHUNK, depth);

	/* 3: READ the mailbox, then overwrite it with a fenced WRITE. */
	char *got = local, *src = local + MAILBOX / 2;
	strcpy(src, "new");
	struct ibv_sge rs = { .addr = (uintptr_t)got, .length = MAILBOX / 2, .lkey = mr->lkey };
	struct ibv_sge ws = { .addr = (uintptr_t)src, .length = 4, .lkey = mr->lkey };
	struct ibv_send_wr write = rdma_wr(IBV_WR_RDMA_WRITE, &ws, peer->addr, peer->rkey, 101);
	struct ibv_send_wr read = rdma_wr(IBV_WR_RDMA_READ, &rs, peer->addr, peer->rkey, 100);
	write.send_flags |= IBV_SEND_FENCE; /* wait for the READ before starting */
	read.next = &write;
	post(qp, &read);
	if (wait_completion(cq, &wc))
		exit(1);
	if (wait_completion(cq, &wc))
		exit(1);
	printf("READ, then fenced WRITE of \"new\": the READ returned \"%s\"\n", got);

	/* 4: the WRITE has completed, so a new READ must see it. */
	memset(got, 0, MAILBOX / 2);
	struct ibv_send_wr again = rdma_wr(IBV_WR_RDMA_READ, &rs, peer->addr, peer->rkey, 102);
	post(qp, &again);
	if (wait_completion(cq, &wc))
		exit(1);
	printf("READ after the WRITE completed returned \"%s\"\n", got);
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
	char *buf = alloc_buffer(BUF_SIZE);
	if (!o.host) {
		strcpy(buf, "old");
		for (size_t off = MAILBOX; off < BUF_SIZE; off++)
			buf[off] = (char)('a' + off % 26);
	}
	/* Client: READ responses land here, so local write. Server: the peer
	 * reads it and writes the mailbox. */
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, BUF_SIZE, o.host ? IBV_ACCESS_LOCAL_WRITE :
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
				       IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, READS + 2, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = READS + 2, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, o.host ? 0 : IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	if (o.host) {
		/* 1: qp_to_rts() chose the depth: our device's limit, and never
		 * more than the peer serves. Ask the QP what it got. */
		struct ibv_qp_attr attr;
		int rc = ibv_query_qp(qp, &attr, IBV_QP_MAX_QP_RD_ATOMIC, &init);
		if (rc)
			die_rc("ibv_query_qp", rc);
		printf("read depth %u (the peer serves %u)\n", (unsigned)attr.max_rd_atomic,
		       (unsigned)peer.rd_atomic);
		client(qp, cq, mr, &peer, attr.max_rd_atomic);
	}
	tcp_barrier(sock);
	close(sock);
	if (!o.host)
		printf("mailbox now holds \"%s\"; the server's CPU took no part\n", buf);

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	printf("done\n");
	return 0;
}
