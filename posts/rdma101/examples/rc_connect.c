/*
 * rc_connect.c - RDMA 101, lesson 2.6: two processes, one RC connection.
 *
 * The server registers a buffer, posts a receive and waits for a client on
 * a TCP port. Over that TCP connection the two exchange connection records
 * (QP number, PSN, LID, GID, MTU, read depth, buffer address, rkey), connect
 * their queue pairs and meet at a barrier. Then the client READs the
 * server's buffer with the address and rkey it was told, and SENDs a message
 * that lands in the server's posted receive.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 rc_connect.c course.c -o rc_connect -libverbs
 * Run:   ./rc_connect [-d device] [-g gid_index] [-p tcp_port]          (server)
 *        ./rc_connect [-d device] [-g gid_index] [-p tcp_port] HOST     (client)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "course.h"

#define BUF_SIZE 4096
#define RECV_AT 2048 /* the server's receive lands in the second half */
#define GREETING "the server's buffer, read by the client"
#define MESSAGE "hello from the client"

int main(int argc, char *argv[])
{
	struct options o;
	int gid_index, rc;
	struct ibv_pd *pd = open_pd_from_args(argc, argv, &o, &gid_index);
	struct ibv_context *ctx = pd->context;

	char *buf = alloc_buffer(BUF_SIZE);
	/* The client READs the server's buffer: remote read on both, harmlessly. */
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, BUF_SIZE,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("ibv_reg_mr");
	struct ibv_cq *cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_READ);

	if (!o.host) {
		strcpy(buf, GREETING);
		/* Post the receive before the peer can possibly send. */
		struct ibv_sge sge = { .addr = (uintptr_t)buf + RECV_AT, .length = BUF_SIZE - RECV_AT,
				       .lkey = mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad;
		if ((rc = ibv_post_recv(qp, &wr, &bad)))
			die_rc("ibv_post_recv", rc);
	}

	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, o.host, o.tcp_port, &mine, &peer);
	print_info("local: ", &mine);
	print_info("remote:", &peer);
	printf("connected: both QPs are in RTS\n");

	struct ibv_wc wc;
	if (o.host) {
		/* READ the server's buffer: its address and rkey came in the record. */
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = sizeof(GREETING),
				       .lkey = mr->lkey };
		struct ibv_send_wr wr = {
			.wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_READ,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { .remote_addr = peer.addr, .rkey = peer.rkey },
		};
		post_send_or_die(qp, &wr);
		if (wait_completion(cq, &wc))
			return 1;
		printf("RDMA READ from the server: \"%s\"\n", buf);

		strcpy(buf, MESSAGE);
		sge.length = sizeof(MESSAGE);
		wr = (struct ibv_send_wr){ .wr_id = 3, .sg_list = &sge, .num_sge = 1,
					   .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
		post_send_or_die(qp, &wr);
		if (wait_completion(cq, &wc))
			return 1;
		printf("SEND completed\n");
	} else {
		if (wait_completion(cq, &wc))
			return 1;
		printf("received %" PRIu32 " bytes: \"%s\"\n", wc.byte_len, buf + RECV_AT);
	}
	tcp_barrier(sock); /* neither side tears down while the other still works */
	close(sock);

	release_all(qp, cq, mr, pd, ctx);
	free(buf);
	printf("done\n");
	return 0;
}
