/*
 * read_fence.c - RDMA 101, lesson 2.10: RDMA READ, read depth and the fence.
 *
 * The server exposes a buffer and does nothing else. The client
 *   1. chooses its read depth from its device's limit and the peer's;
 *   2. posts READS reads of CHUNK bytes each in one call, twice what the
 *      depth allows at once, and checks every byte that came back;
 *   3. posts a READ of a mailbox followed by a fenced RDMA WRITE that
 *      overwrites the same bytes: the fence guarantees that the READ returns
 *      the old contents;
 *   4. reads the mailbox again and sees the new contents.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 read_fence.c course.c -o read_fence -libverbs
 * Run:   ./read_fence [-d DEV] [-g GID] [-p PORT]         server
 *        ./read_fence [-d DEV] [-g GID] [-p PORT] HOST    client
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
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

int main(int argc, char **argv)
{
	const char *dev = NULL;
	int gid_arg = -1, port = COURSE_TCP_PORT, opt;

	while ((opt = getopt(argc, argv, "d:g:p:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'g': gid_arg = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-d DEV] [-g GID] [-p PORT] [HOST]\n", argv[0]);
			return 1;
		}
	}
	const char *host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(dev);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, gid_arg);
	struct ibv_device_attr dev_attr;
	if (ibv_query_device(ctx, &dev_attr))
		die("ibv_query_device");
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	char *buf = malloc(BUF_SIZE);
	if (!buf)
		die("malloc");
	if (host)
		memset(buf, 0, BUF_SIZE);
	else {
		strcpy(buf, "old");
		for (size_t off = MAILBOX; off < BUF_SIZE; off++)
			buf[off] = (char)('a' + off % 26);
	}
	/* Client: READ responses land here, so local write. Server: the peer
	 * reads it and writes the mailbox. */
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, BUF_SIZE, host ? IBV_ACCESS_LOCAL_WRITE :
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

	qp_to_init(qp, COURSE_IB_PORT, host ? 0 : IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	int sock = host ? tcp_connect(host, port) : tcp_listen_accept(port);
	struct conn_info me, peer;
	local_info(qp, COURSE_IB_PORT, gid_index, mr, &me);
	exchange_info(sock, &me, &peer);

	/* 1: our READs in flight: our device's limit, and no more than the peer
	 * serves. qp_to_rts() applies exactly this rule. */
	int depth = dev_attr.max_qp_init_rd_atom < peer.rd_atomic ? dev_attr.max_qp_init_rd_atom
								   : peer.rd_atomic;
	if (depth < 1)
		die_rc("no READs allowed: a depth limit is 0", EINVAL);
	if (host)
		printf("read depth %d: our device allows %d, the peer serves %u\n", depth,
		       dev_attr.max_qp_init_rd_atom, (unsigned)peer.rd_atomic);
	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &me, &peer);
	qp_to_rts(qp, &me, &peer);
	tcp_barrier(sock);

	if (host)
		client(qp, cq, mr, &peer, (uint8_t)depth);
	tcp_barrier(sock);
	if (!host)
		printf("mailbox now holds \"%s\"; the server's CPU took no part\n", buf);
	printf("done\n");

	close(sock);
	if (ibv_destroy_qp(qp) || ibv_destroy_cq(cq) || ibv_dereg_mr(mr) || ibv_dealloc_pd(pd))
		die("releasing resources");
	free(buf);
	if (ibv_close_device(ctx))
		die("ibv_close_device");
	return 0;
}
