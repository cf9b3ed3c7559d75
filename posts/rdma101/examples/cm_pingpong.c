/*
 * cm_pingpong.c - RDMA 101, lesson 2.14: the connection, set up by librdmacm.
 *
 * No TCP side channel and no hand-made QP transitions: the RDMA connection
 * manager resolves the peer's address to a device and a route, moves both
 * QPs through INIT, RTR and RTS, and carries a little private data. The
 * server's accept carries the address and rkey of its buffer; the client
 * RDMA WRITEs a greeting there with immediate data, and the server answers
 * with a SEND. Every connection-manager event is printed as it arrives.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 cm_pingpong.c course.c -o cm_pingpong -libverbs -lrdmacm
 * Run:   ./cm_pingpong [-p PORT]          server
 *        ./cm_pingpong [-p PORT] HOST     client (HOST: the server's IP address)
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/rdma_cma.h>

#include "course.h"

#define BUF_SIZE 64
#define GREETING "hello through rdma_cm"
#define TIMEOUT_MS 2000

/* What the server's accept carries: its buffer, in network byte order. */
struct wire_buf {
	uint32_t addr_hi, addr_lo, rkey;
};

/* Everything one side owns, released in reverse order by release(). */
struct side {
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen_id, *id;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	char *buf;
};

/* Wait for the next event, insist on its type, print it; the caller acks. */
static struct rdma_cm_event *expect(struct rdma_event_channel *ec, enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(ec, &ev))
		die("rdma_get_cm_event");
	printf("event %s\n", rdma_event_str(ev->event));
	if (ev->event != type) {
		fprintf(stderr, "expected %s (status %d)\n", rdma_event_str(type), ev->status);
		exit(1);
	}
	return ev;
}

/* PD, buffer, CQ and QP on whatever device the CM chose for this id. */
static void create_resources(struct side *s, int access)
{
	printf("device %s\n", device_name(s->id->verbs));
	s->pd = ibv_alloc_pd(s->id->verbs);
	if (!s->pd)
		die("ibv_alloc_pd");
	s->buf = alloc_buffer(BUF_SIZE);
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE | access);
	if (!s->mr)
		die("ibv_reg_mr");
	s->cq = ibv_create_cq(s->id->verbs, 4, NULL, NULL, 0);
	if (!s->cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = s->cq, .recv_cq = s->cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	/* The CM creates the QP and moves it to INIT; receives may be posted now. */
	if (rdma_create_qp(s->id, s->pd, &init))
		die("rdma_create_qp");
	/* Incoming messages land in the first half; the client sends from the second. */
	struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .length = BUF_SIZE / 2, .lkey = s->mr->lkey };
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(s->id->qp, &wr, &bad);
	if (rc)
		die_rc("ibv_post_recv", rc);
}

static void server(struct side *s, int port)
{
	struct sockaddr_in any = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				   .sin_addr.s_addr = htonl(INADDR_ANY) };

	if (rdma_create_id(s->ec, &s->listen_id, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	if (rdma_bind_addr(s->listen_id, (struct sockaddr *)&any))
		die("rdma_bind_addr");
	if (rdma_listen(s->listen_id, 1))
		die("rdma_listen");
	printf("listening on RDMA CM port %d\n", port);

	struct rdma_cm_event *ev = expect(s->ec, RDMA_CM_EVENT_CONNECT_REQUEST);
	s->id = ev->id; /* a new id for this connection, like accept() */
	rdma_ack_cm_event(ev);
	create_resources(s, IBV_ACCESS_REMOTE_WRITE);

	struct wire_buf wb = {
		.addr_hi = htonl((uint32_t)((uintptr_t)s->buf >> 32)),
		.addr_lo = htonl((uint32_t)(uintptr_t)s->buf),
		.rkey = htonl(s->mr->rkey),
	};
	struct rdma_conn_param param = {
		.private_data = &wb, .private_data_len = sizeof(wb),
		.responder_resources = 1, .initiator_depth = 1,
		.rnr_retry_count = 6, /* retry_count: rdma_accept() ignores it */
	};
	if (rdma_accept(s->id, &param)) /* INIT -> RTR -> RTS happen here */
		die("rdma_accept");
	rdma_ack_cm_event(expect(s->ec, RDMA_CM_EVENT_ESTABLISHED));

	struct ibv_wc wc;
	if (wait_completion(s->cq, &wc) || wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM)
		exit(1);
	printf("RDMA WRITE with immediate %" PRIu32 " put \"%s\" in our buffer\n",
	       ntohl(wc.imm_data), s->buf);

	strcpy(s->buf, "pong");
	struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .length = 5, .lkey = s->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	int rc = ibv_post_send(s->id->qp, &wr, &bad);
	if (rc)
		die_rc("ibv_post_send", rc);
	if (wait_completion(s->cq, &wc))
		exit(1);
	printf("sent \"pong\"\n");
	rdma_ack_cm_event(expect(s->ec, RDMA_CM_EVENT_DISCONNECTED)); /* the client hangs up */
}

static void client(struct side *s, const char *host, int port)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	char service[8];

	snprintf(service, sizeof(service), "%d", port);
	/* -1 with errno, or a getaddrinfo() error code such as EAI_NONAME */
	int rc = rdma_getaddrinfo(host, service, &hints, &res);
	if (rc) {
		fprintf(stderr, "rdma_getaddrinfo(%s): %s\n", host,
			rc == -1 ? strerror(errno) : gai_strerror(rc));
		exit(1);
	}
	if (rdma_create_id(s->ec, &s->id, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	/* Which local device and port reach this IP address? */
	rc = rdma_resolve_addr(s->id, NULL, res->ai_dst_addr, TIMEOUT_MS);
	rdma_freeaddrinfo(res);
	if (rc)
		die("rdma_resolve_addr");
	rdma_ack_cm_event(expect(s->ec, RDMA_CM_EVENT_ADDR_RESOLVED));
	create_resources(s, 0);
	if (rdma_resolve_route(s->id, TIMEOUT_MS))
		die("rdma_resolve_route");
	rdma_ack_cm_event(expect(s->ec, RDMA_CM_EVENT_ROUTE_RESOLVED));

	struct rdma_conn_param param = {
		.responder_resources = 1, .initiator_depth = 1,
		.retry_count = 6, /* the CM carries it to the server: both QPs' retry_cnt */
		.rnr_retry_count = 6,
	};
	if (rdma_connect(s->id, &param))
		die("rdma_connect");
	struct rdma_cm_event *ev = expect(s->ec, RDMA_CM_EVENT_ESTABLISHED);
	struct wire_buf wb;
	if (ev->param.conn.private_data_len < sizeof(wb)) {
		fprintf(stderr, "the server sent no buffer\n");
		exit(1);
	}
	memcpy(&wb, ev->param.conn.private_data, sizeof(wb)); /* gone after the ack */
	rdma_ack_cm_event(ev);
	uint64_t addr = (uint64_t)ntohl(wb.addr_hi) << 32 | ntohl(wb.addr_lo);
	uint32_t rkey = ntohl(wb.rkey);
	printf("the server's buffer: 0x%" PRIx64 ", rkey 0x%" PRIx32 " (from its private data)\n",
	       addr, rkey);

	char *src = s->buf + BUF_SIZE / 2; /* the first half receives the pong */
	strcpy(src, GREETING);
	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = sizeof(GREETING), .lkey = s->mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htonl(sizeof(GREETING)), .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = addr, .rkey = rkey },
	}, *bad;
	rc = ibv_post_send(s->id->qp, &wr, &bad);
	if (rc)
		die_rc("ibv_post_send", rc);
	struct ibv_wc wc[2];
	if (wait_completion(s->cq, &wc[0]) || wait_completion(s->cq, &wc[1]))
		exit(1);
	printf("WRITE completed; the server answered \"%s\"\n", s->buf);

	if (rdma_disconnect(s->id))
		die("rdma_disconnect");
	rdma_ack_cm_event(expect(s->ec, RDMA_CM_EVENT_DISCONNECTED));
}

static void release(struct side *s)
{
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	release_all(NULL, s->cq, s->mr, s->pd, NULL); /* the CM owns the device context */
	free(s->buf);
	if ((s->id && rdma_destroy_id(s->id)) || (s->listen_id && rdma_destroy_id(s->listen_id)))
		die("rdma_destroy_id");
	rdma_destroy_event_channel(s->ec);
}

int main(int argc, char **argv)
{
	int port = 7471, opt;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p') {
			fprintf(stderr, "usage: %s [-p PORT] [HOST]\n", argv[0]);
			return 1;
		}
		port = (int)number("-p", optarg, 1, 65535);
	}
	const char *host = optind < argc ? argv[optind] : NULL;

	/* Device first, as in every course program: without one, say so and stop.
	 * (The CM opens its own context on whichever device the address needs.) */
	if (ibv_close_device(open_device(NULL)))
		die("ibv_close_device");
	struct side s = { .ec = rdma_create_event_channel() };
	if (!s.ec)
		die("rdma_create_event_channel");
	if (host)
		client(&s, host, port);
	else
		server(&s, port);
	release(&s);
	printf("done\n");
	return 0;
}
