/*
 * atomics.c - RDMA 101, lesson 2.11: remote fetch-and-add and compare-and-swap.
 *
 * The server exposes a lock word, a counter and a record. The client
 *   1. (each side) prints its device's atomic_cap and stops if it is NONE;
 *   2. takes three tickets from the counter with fetch-and-add;
 *   3. takes the lock with compare-and-swap (0 -> its id);
 *   4. tries again as a second client would, and is told who holds it;
 *   5. READs the record under the lock and releases the lock with a
 *      compare-and-swap that is fenced behind the READ.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 atomics.c course.c -o atomics -libverbs
 * Run:   ./atomics [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./atomics [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define MY_ID 0xAu
#define OTHER_ID 0xBu

/* The words peers operate on: each 8 bytes, 8-byte aligned. */
struct shared {
	uint64_t lock;    /* 0 = free, otherwise the holder's id */
	uint64_t counter; /* a ticket dispenser */
	char record[48];  /* what the lock protects */
};

/* The client's private buffers: atomics return the old value here. */
struct results {
	uint64_t old;
	char record[48];
};

static uint64_t atomic_op(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
			  enum ibv_wr_opcode op, uint64_t remote, uint32_t rkey,
			  uint64_t compare_add, uint64_t swap)
{
	struct results *res = mr->addr;
	struct ibv_sge sge = { .addr = (uintptr_t)&res->old, .length = 8, .lkey = mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED,
		.wr.atomic = { .remote_addr = remote, .rkey = rkey,
			       .compare_add = compare_add, .swap = swap },
	}, *bad_wr = NULL;
	int rc = ibv_post_send(qp, &wr, &bad_wr);
	if (rc)
		die_rc("ibv_post_send (atomic)", rc);
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		exit(1);
	return res->old; /* valid only now, after the completion */
}

static void client(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
		   const struct conn_info *peer)
{
	uint64_t lock = peer->addr + offsetof(struct shared, lock);
	uint64_t counter = peer->addr + offsetof(struct shared, counter);
	uint64_t record = peer->addr + offsetof(struct shared, record);

	for (int i = 0; i < 3; i++)
		printf("fetch-and-add 1: ticket %" PRIu64 "\n",
		       atomic_op(qp, cq, mr, IBV_WR_ATOMIC_FETCH_AND_ADD, counter, peer->rkey, 1, 0));

	uint64_t old = atomic_op(qp, cq, mr, IBV_WR_ATOMIC_CMP_AND_SWP, lock, peer->rkey, 0, MY_ID);
	printf("compare-and-swap 0 -> 0x%x: found 0x%" PRIx64 ", %s\n", MY_ID, old,
	       old == 0 ? "lock acquired" : "lock busy");
	if (old != 0)
		exit(1);

	old = atomic_op(qp, cq, mr, IBV_WR_ATOMIC_CMP_AND_SWP, lock, peer->rkey, 0, OTHER_ID);
	printf("compare-and-swap 0 -> 0x%x: found 0x%" PRIx64 ", %s\n", OTHER_ID, old,
	       old == 0 ? "lock acquired" : "lock busy, nothing changed");

	/* Read the record, then release; the fence keeps the release behind the READ. */
	struct results *res = mr->addr;
	struct ibv_sge rsge = { .addr = (uintptr_t)res->record, .length = sizeof(res->record),
				.lkey = mr->lkey };
	struct ibv_sge asge = { .addr = (uintptr_t)&res->old, .length = 8, .lkey = mr->lkey };
	struct ibv_send_wr release = {
		.wr_id = 2, .sg_list = &asge, .num_sge = 1, .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE,
		.wr.atomic = { .remote_addr = lock, .rkey = peer->rkey, .compare_add = MY_ID, .swap = 0 },
	};
	struct ibv_send_wr read = {
		.wr_id = 1, .sg_list = &rsge, .num_sge = 1, .opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED, .next = &release,
		.wr.rdma = { .remote_addr = record, .rkey = peer->rkey },
	}, *bad_wr = NULL;
	int rc = ibv_post_send(qp, &read, &bad_wr);
	if (rc)
		die_rc("ibv_post_send (READ + release)", rc);
	struct ibv_wc wc;
	if (wait_completion(cq, &wc))
		exit(1);
	if (wait_completion(cq, &wc))
		exit(1);
	printf("READ under the lock: \"%s\"\n", res->record);
	printf("compare-and-swap 0x%x -> 0 (fenced): found 0x%" PRIx64 ", %s\n", MY_ID, res->old,
	       res->old == MY_ID ? "lock released" : "we did not hold it");
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, o.gid_index);
	struct ibv_device_attr dev_attr;
	int rc = ibv_query_device(ctx, &dev_attr);
	if (rc)
		die_rc("ibv_query_device", rc);
	printf("atomic_cap: %s\n", dev_attr.atomic_cap == IBV_ATOMIC_HCA  ? "IBV_ATOMIC_HCA" :
				   dev_attr.atomic_cap == IBV_ATOMIC_GLOB ? "IBV_ATOMIC_GLOB" :
									    "IBV_ATOMIC_NONE");
	if (dev_attr.atomic_cap == IBV_ATOMIC_NONE) {
		printf("this device executes no atomics\n");
		release_all(NULL, NULL, NULL, NULL, ctx);
		return 1;
	}
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	void *buf = alloc_buffer(64); /* page-aligned: the words are 8-byte aligned */
	if (!o.host)
		strcpy(((struct shared *)buf)->record, "balance: 100");
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, 64, o.host ? IBV_ACCESS_LOCAL_WRITE :
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC |
				       IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, o.host ? 0 : IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_REMOTE_READ);

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	if (o.host)
		client(qp, cq, mr, &peer);
	tcp_barrier(sock);
	close(sock);
	if (!o.host) {
		const struct shared *sh = buf;
		printf("server: lock 0x%" PRIx64 ", counter %" PRIu64 "; its CPU took no part\n",
		       sh->lock, sh->counter);
	}

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	printf("done\n");
	return 0;
}
