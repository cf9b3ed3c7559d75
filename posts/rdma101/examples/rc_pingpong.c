/*
 * rc_pingpong.c - RDMA 101, lesson 2.11 (the capstone of Part 2).
 *
 * Two processes, a server and a client, each build one reliable-connected
 * (RC) queue pair, connect the two over a TCP side channel, and then run a
 * short protocol that uses every operation from Part 2:
 *
 *   step 1  SEND/RECV ping-pong, N round trips        (client starts each one)
 *   step 2  SEND with immediate data                  (client -> server)
 *   step 3  RDMA WRITE with immediate data            (server -> client)
 *   step 4  RDMA READ of the peer's buffer            (client reads server)
 *   step 5  atomic fetch-and-add on the peer's counter (client -> server)
 *   step 6  a final SEND that tells the server to check its counter
 *
 * Every verbs call and every work completion is checked. On any failure the
 * program prints why, reports pending asynchronous events, releases what it
 * created in reverse order, and exits with status 1.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 rc_pingpong.c -o rc_pingpong -libverbs
 * Run:   ./rc_pingpong [options]               the server: waits for one client
 *        ./rc_pingpong [options] HOST [PORT]   the client: connects to HOST
 * Options:
 *        -p PORT       TCP port of the side channel (default 18515)
 *        -n ITERS      ping-pong round trips, client only (default 10)
 *        -d DEVICE     RDMA device name (default: the first one found)
 *        -g GID_INDEX  GID table entry to use on RoCE (default 0)
 */
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define DEFAULT_TCP_PORT "18515"
#define DEFAULT_ITERS 10
#define MAX_ITERS 1000000
#define IB_PORT 1          /* RDMA ports are numbered from 1 */
#define MSG_SIZE 64        /* every SEND payload and receive buffer */
#define RECV_DEPTH 8       /* receives we keep posted at all times */
#define SEND_DEPTH 4       /* we never have more than one send in flight */
#define POLL_TIMEOUT_SEC 10
#define WIRE_MAGIC 0x52443131u /* "RD11": both ends run this program */

#define IMM_TAG 0x00c0ffeeu   /* immediate data sent in step 2 */
#define COUNTER_START 40u     /* each side's counter before step 5 */
#define COUNTER_ADD 2u        /* what the client adds in step 5 */
#define READ_TEXT "the server's read area, fetched with RDMA READ"
#define WRITE_TEXT "written into the client by RDMA WRITE with immediate"

/* wr_id values for the send queue; receive wr_ids are buffer slot numbers. */
enum { WRID_SEND = 100, WRID_WRITE_IMM, WRID_READ, WRID_ATOMIC };

/*
 * Memory the peer may touch with one-sided operations. Both ends run the
 * same program, so offsetof() gives the peer's offsets too. The counter is
 * first, so it is 8-byte aligned, which atomics require.
 */
struct exposed {
	uint64_t counter;          /* target of the peer's fetch-and-add */
	char read_area[MSG_SIZE];  /* the peer RDMA READs this */
	char write_area[MSG_SIZE]; /* the peer RDMA WRITEs into this */
};

/* Memory only our own work requests use: the peer never gets its key. */
struct local_bufs {
	uint64_t atomic_result;    /* fetch-and-add returns the old value here */
	char send_buf[MSG_SIZE];   /* source of SENDs and of the RDMA WRITE */
	char read_dst[MSG_SIZE];   /* destination of the RDMA READ */
	char recv_buf[RECV_DEPTH][MSG_SIZE];
};

/* What one side tells the other, in host byte order once decoded. */
struct peer_info {
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint64_t addr;   /* address of the peer's struct exposed */
	uint16_t lid;
	uint8_t mtu;     /* the peer port's active MTU (enum ibv_mtu) */
	uint8_t atomics; /* 1 if the peer's device supports atomics */
	uint32_t iters;  /* ping-pong round trips; the client decides */
	union ibv_gid gid;
};

/*
 * The same information as it travels over TCP: fixed-size fields, integers
 * in network byte order, no padding. The 64-bit address goes as two halves.
 */
struct wire_info {
	uint32_t magic;
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint32_t addr_hi;
	uint32_t addr_lo;
	uint16_t lid;
	uint8_t mtu;
	uint8_t atomics;
	uint32_t iters;
	uint8_t gid[16]; /* a GID is already a big-endian byte string */
};
_Static_assert(sizeof(struct wire_info) == 48, "wire_info must have no padding");

struct options {
	const char *host; /* NULL: we are the server */
	const char *port;
	const char *device;
	int iters;
	int gid_index;
};

struct conn {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct exposed *exposed;
	struct local_bufs *local;
	struct ibv_mr *exposed_mr;
	struct ibv_mr *local_mr;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct ibv_qp *qp;
	int sock;

	struct ibv_port_attr port;
	union ibv_gid gid;
	int gid_index;
	int use_grh;   /* address the peer by GID (RoCE) instead of LID */
	int atomics;   /* this device supports atomics */
	uint32_t psn;  /* first PSN of our send queue */
	uint32_t iters; /* client: from -n; server: learnt from the client */
	struct peer_info peer;
};

/* ------------------------------------------------------------------------ */
/* Device, port and verbs objects                                           */
/* ------------------------------------------------------------------------ */

/* For messages: the man page allows ibv_get_device_name() to return NULL. */
static const char *device_name(struct ibv_device *dev)
{
	const char *name = ibv_get_device_name(dev);

	return name ? name : "(unnamed)";
}

static struct ibv_context *open_device(const char *want)
{
	int num = 0;
	struct ibv_device **list = ibv_get_device_list(&num);
	struct ibv_device *dev = NULL;

	if (!list) {
		fprintf(stderr, "no RDMA device found (ibv_get_device_list: %s)\n",
			strerror(errno));
		return NULL;
	}
	for (int i = 0; i < num && !dev; i++) {
		const char *name = ibv_get_device_name(list[i]);

		if (!want || (name && strcmp(name, want) == 0))
			dev = list[i];
	}
	if (!dev) {
		if (num == 0)
			fprintf(stderr, "no RDMA device found (the device list is empty)\n");
		else
			fprintf(stderr, "no RDMA device found with the name %s\n", want);
		ibv_free_device_list(list);
		return NULL;
	}

	struct ibv_context *ctx = ibv_open_device(dev);
	if (!ctx)
		fprintf(stderr, "ibv_open_device(%s) failed: %s\n",
			device_name(dev), strerror(errno));
	ibv_free_device_list(list); /* the open context stays valid */
	return ctx;
}

static int is_zero_gid(const union ibv_gid *gid)
{
	for (size_t i = 0; i < sizeof(gid->raw); i++)
		if (gid->raw[i])
			return 0;
	return 1;
}

static void gid_to_str(const union ibv_gid *gid, char *out, socklen_t len)
{
	/* A GID has the format of an IPv6 address, so print it as one. */
	if (!inet_ntop(AF_INET6, gid->raw, out, len))
		snprintf(out, len, "?");
}

/* Learn what the device and port can do, and our own address on the fabric. */
static int query_port(struct conn *c)
{
	struct ibv_device_attr dev_attr;
	int rc;

	if (c->ctx->device->transport_type == IBV_TRANSPORT_IWARP) {
		fprintf(stderr, "%s is an iWARP device; iWARP queue pairs are "
			"connected with librdmacm, which this program does not use\n",
			device_name(c->ctx->device));
		return -1;
	}
	rc = ibv_query_device(c->ctx, &dev_attr);
	if (rc) {
		fprintf(stderr, "ibv_query_device failed: %s\n", strerror(rc));
		return -1;
	}
	c->atomics = dev_attr.atomic_cap != IBV_ATOMIC_NONE;

	rc = ibv_query_port(c->ctx, IB_PORT, &c->port);
	if (rc) {
		fprintf(stderr, "ibv_query_port failed: %s\n", strerror(rc));
		return -1;
	}
	if (c->port.state != IBV_PORT_ACTIVE) {
		fprintf(stderr, "port %d is %s; it must be active\n", IB_PORT,
			ibv_port_state_str(c->port.state));
		return -1;
	}
	if (c->gid_index >= c->port.gid_tbl_len) {
		fprintf(stderr, "GID index %d is out of range (table has %d entries)\n",
			c->gid_index, c->port.gid_tbl_len);
		return -1;
	}

	c->use_grh = c->port.link_layer == IBV_LINK_LAYER_ETHERNET ||
		     (c->port.flags & IBV_QPF_GRH_REQUIRED);
	if (!c->use_grh && c->port.lid == 0) {
		fprintf(stderr, "port %d has no LID; is a subnet manager running?\n",
			IB_PORT);
		return -1;
	}
	if (ibv_query_gid(c->ctx, IB_PORT, c->gid_index, &c->gid)) {
		fprintf(stderr, "ibv_query_gid(index %d) failed\n", c->gid_index);
		return -1;
	}
	if (c->use_grh && is_zero_gid(&c->gid)) {
		fprintf(stderr, "GID index %d is empty; choose another with -g\n",
			c->gid_index);
		return -1;
	}

	printf("device %s, port %d, %s, atomics %s\n",
	       device_name(c->ctx->device), IB_PORT,
	       c->port.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)"
							     : "InfiniBand",
	       c->atomics ? "supported" : "not supported");
	return 0;
}

/* Two buffers, two registrations: only 'exposed' gets remote access rights. */
static int register_memory(struct conn *c)
{
	int remote = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
		     IBV_ACCESS_REMOTE_WRITE;
	if (c->atomics)
		remote |= IBV_ACCESS_REMOTE_ATOMIC;

	/* 4 KiB-aligned (a page on most systems): no unrelated data shares
	   the pinned pages, and the counter at offset 0 is 8-byte aligned. */
	c->exposed = aligned_alloc(4096, 4096);
	c->local = aligned_alloc(4096, 4096);
	if (!c->exposed || !c->local) {
		fprintf(stderr, "out of memory\n");
		return -1;
	}
	_Static_assert(sizeof(struct exposed) <= 4096, "exposed fits in a page");
	_Static_assert(sizeof(struct local_bufs) <= 4096, "local fits in a page");
	memset(c->exposed, 0, 4096);
	memset(c->local, 0, 4096);
	c->exposed->counter = COUNTER_START;
	snprintf(c->exposed->read_area, MSG_SIZE, "%s", READ_TEXT);

	c->exposed_mr = ibv_reg_mr(c->pd, c->exposed, sizeof(*c->exposed), remote);
	if (!c->exposed_mr) {
		fprintf(stderr, "ibv_reg_mr(exposed) failed: %s\n", strerror(errno));
		return -1;
	}
	c->local_mr = ibv_reg_mr(c->pd, c->local, sizeof(*c->local),
				 IBV_ACCESS_LOCAL_WRITE);
	if (!c->local_mr) {
		fprintf(stderr, "ibv_reg_mr(local) failed: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int create_queues(struct conn *c)
{
	/*
	 * Separate CQs for the two queues: a step can then wait for "my send
	 * finished" and "a message arrived" independently, in either order.
	 */
	c->send_cq = ibv_create_cq(c->ctx, SEND_DEPTH, NULL, NULL, 0);
	if (!c->send_cq) {
		fprintf(stderr, "ibv_create_cq(send) failed: %s\n", strerror(errno));
		return -1;
	}
	c->recv_cq = ibv_create_cq(c->ctx, RECV_DEPTH, NULL, NULL, 0);
	if (!c->recv_cq) {
		fprintf(stderr, "ibv_create_cq(recv) failed: %s\n", strerror(errno));
		return -1;
	}

	struct ibv_qp_init_attr init;
	memset(&init, 0, sizeof(init));
	init.send_cq = c->send_cq;
	init.recv_cq = c->recv_cq;
	init.qp_type = IBV_QPT_RC;
	init.sq_sig_all = 0; /* we ask for each completion with IBV_SEND_SIGNALED */
	init.cap.max_send_wr = SEND_DEPTH;
	init.cap.max_recv_wr = RECV_DEPTH;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;

	c->qp = ibv_create_qp(c->pd, &init);
	if (!c->qp) {
		fprintf(stderr, "ibv_create_qp failed: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int create_resources(struct conn *c)
{
	c->pd = ibv_alloc_pd(c->ctx);
	if (!c->pd) {
		fprintf(stderr, "ibv_alloc_pd failed: %s\n", strerror(errno));
		return -1;
	}
	if (register_memory(c) || create_queues(c))
		return -1;
	c->psn = (uint32_t)(time(NULL) ^ getpid()) & 0xffffff; /* PSNs are 24 bits */
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Queue pair state transitions                                             */
/* ------------------------------------------------------------------------ */

static int modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		     const char *step)
{
	int rc = ibv_modify_qp(qp, attr, mask); /* returns an errno value */
	if (rc)
		fprintf(stderr, "%s: ibv_modify_qp failed: %s\n", step, strerror(rc));
	return rc ? -1 : 0;
}

/* RESET -> INIT: local choices only; what the peer may do to our memory. */
static int qp_to_init(struct conn *c)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = IB_PORT;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	if (c->atomics)
		attr.qp_access_flags |= IBV_ACCESS_REMOTE_ATOMIC;

	return modify_qp(c->qp, &attr,
			 IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				 IBV_QP_ACCESS_FLAGS,
			 "RESET -> INIT");
}

/* INIT -> RTR: the receive side, filled in from what the peer told us. */
static int qp_to_rtr(struct conn *c)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	/* Both ends must use the same path MTU: take the smaller one. */
	attr.path_mtu = c->port.active_mtu < c->peer.mtu ? c->port.active_mtu
							 : (enum ibv_mtu)c->peer.mtu;
	attr.dest_qp_num = c->peer.qpn;
	attr.rq_psn = c->peer.psn;    /* the first PSN the peer will send */
	attr.max_dest_rd_atomic = 1;  /* READs/atomics we serve at once */
	attr.min_rnr_timer = 12;      /* encoded 0.64 ms: how long senders wait */

	attr.ah_attr.port_num = IB_PORT;
	attr.ah_attr.dlid = c->peer.lid; /* used on InfiniBand; 0 on RoCE */
	attr.ah_attr.sl = 0;
	if (c->use_grh) {
		attr.ah_attr.is_global = 1;
		attr.ah_attr.grh.dgid = c->peer.gid;
		attr.ah_attr.grh.sgid_index = (uint8_t)c->gid_index;
		attr.ah_attr.grh.hop_limit = 64; /* enough to cross IP routers */
	}

	return modify_qp(c->qp, &attr,
			 IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
			 "INIT -> RTR");
}

/* RTR -> RTS: the send side, its retry policy and our own first PSN. */
static int qp_to_rts(struct conn *c)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = c->psn;
	attr.timeout = 14;      /* ack timeout 4.096 us * 2^14, about 67 ms */
	attr.retry_cnt = 6;     /* retransmissions before RETRY_EXC_ERR; not 7,
				   which Soft-RoCE treats as "for ever" */
	attr.rnr_retry = 6;     /* finite (7 = for ever): a missing receive
				   becomes RNR_RETRY_EXC_ERR, not a hang */
	attr.max_rd_atomic = 1; /* READs/atomics we keep in flight */

	return modify_qp(c->qp, &attr,
			 IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_MAX_QP_RD_ATOMIC,
			 "RTR -> RTS");
}

/* ------------------------------------------------------------------------ */
/* The TCP side channel                                                     */
/* ------------------------------------------------------------------------ */

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL); /* no SIGPIPE */
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "send on TCP socket failed: %s\n", strerror(errno));
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "recv on TCP socket failed: %s\n", strerror(errno));
			return -1;
		}
		if (n == 0) {
			fprintf(stderr, "the peer closed the TCP connection\n");
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints, *res, *ai;
	int fd = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	int rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		fprintf(stderr, "getaddrinfo(%s): %s\n", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "could not connect to %s port %s: %s\n", host, port,
			strerror(errno));
	return fd;
}

static int tcp_accept_one(const char *port)
{
	struct addrinfo hints, *res, *ai;
	int lfd = -1, one = 1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	int rc = getaddrinfo(NULL, port, &hints, &res);
	if (rc) {
		fprintf(stderr, "getaddrinfo(port %s): %s\n", port, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		lfd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (lfd < 0)
			continue;
		/* Not fatal: without it a quick restart may find the port busy. */
		if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
			fprintf(stderr, "warning: SO_REUSEADDR: %s\n", strerror(errno));
		if (bind(lfd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(lfd, 1) == 0)
			break;
		close(lfd);
		lfd = -1;
	}
	freeaddrinfo(res);
	if (lfd < 0) {
		fprintf(stderr, "could not listen on TCP port %s: %s\n", port,
			strerror(errno));
		return -1;
	}

	printf("waiting for a client on TCP port %s\n", port);
	fflush(stdout);
	int fd;
	do
		fd = accept(lfd, NULL, NULL);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		fprintf(stderr, "accept failed: %s\n", strerror(errno));
	close(lfd); /* one client is all we serve */
	return fd;
}

static void print_info(const char *who, const struct peer_info *p)
{
	char gid[INET6_ADDRSTRLEN];
	gid_to_str(&p->gid, gid, sizeof(gid));
	printf("%-6s QPN 0x%06" PRIx32 ", PSN 0x%06" PRIx32 ", LID 0x%04" PRIx16
	       ", GID %s\n       buffer 0x%" PRIx64 ", rkey 0x%08" PRIx32 "\n",
	       who, p->qpn, p->psn, p->lid, gid, p->addr, p->rkey);
}

/* Send our connection details and receive the peer's, in a fixed format. */
static int exchange_info(struct conn *c)
{
	struct wire_info out, in;
	uint64_t addr = (uint64_t)(uintptr_t)c->exposed;

	memset(&out, 0, sizeof(out));
	out.magic = htonl(WIRE_MAGIC);
	out.qpn = htonl(c->qp->qp_num);
	out.psn = htonl(c->psn);
	out.rkey = htonl(c->exposed_mr->rkey);
	out.addr_hi = htonl((uint32_t)(addr >> 32));
	out.addr_lo = htonl((uint32_t)addr);
	out.lid = htons(c->port.lid);
	out.mtu = (uint8_t)c->port.active_mtu;
	out.atomics = (uint8_t)c->atomics;
	out.iters = htonl(c->iters);
	memcpy(out.gid, c->gid.raw, sizeof(out.gid));

	/* 48 bytes fit in any socket buffer, so both sides may write first. */
	if (write_all(c->sock, &out, sizeof(out)) ||
	    read_all(c->sock, &in, sizeof(in)))
		return -1;
	if (ntohl(in.magic) != WIRE_MAGIC) {
		fprintf(stderr, "the peer is not running rc_pingpong\n");
		return -1;
	}

	c->peer.qpn = ntohl(in.qpn);
	c->peer.psn = ntohl(in.psn);
	c->peer.rkey = ntohl(in.rkey);
	c->peer.addr = ((uint64_t)ntohl(in.addr_hi) << 32) | ntohl(in.addr_lo);
	c->peer.lid = ntohs(in.lid);
	c->peer.mtu = in.mtu;
	c->peer.atomics = in.atomics;
	c->peer.iters = ntohl(in.iters);
	memcpy(c->peer.gid.raw, in.gid, sizeof(in.gid));
	if (c->iters == 0) /* we are the server: run as many rounds as the client */
		c->iters = c->peer.iters;
	if (c->iters == 0 || c->iters > MAX_ITERS) {
		fprintf(stderr, "the peer asked for %" PRIu32 " round trips\n", c->iters);
		return -1;
	}

	struct peer_info self = { .qpn = c->qp->qp_num, .psn = c->psn,
				  .rkey = c->exposed_mr->rkey, .addr = addr,
				  .lid = c->port.lid, .gid = c->gid };
	print_info("local:", &self);
	print_info("remote:", &c->peer);
	return 0;
}

/*
 * During the protocol the peer writes nothing on TCP except its final
 * barrier byte. A readable socket with no data (end of file) therefore means
 * the peer process has exited, and no completion we wait for will come.
 */
static int peer_gone(int sock)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	char byte;

	if (poll(&pfd, 1, 0) != 1)
		return 0;
	return recv(sock, &byte, 1, MSG_PEEK) <= 0; /* peek: leave data alone */
}

/* Both sides write one byte and wait for the other's: a meeting point. */
static int tcp_barrier(int sock)
{
	char token = 'B';
	return write_all(sock, &token, 1) || read_all(sock, &token, 1) ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Posting work requests and reaping completions                            */
/* ------------------------------------------------------------------------ */

static int post_recv(struct conn *c, uint64_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)c->local->recv_buf[slot],
		.length = MSG_SIZE,
		.lkey = c->local_mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	int rc = ibv_post_recv(c->qp, &wr, &bad);
	if (rc)
		fprintf(stderr, "ibv_post_recv failed: %s\n", strerror(rc));
	return rc ? -1 : 0;
}

/* Post one signalled send-queue work request with a single local buffer. */
static int post_send(struct conn *c, struct ibv_send_wr *wr, void *buf,
		     uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf,
		.length = len,
		.lkey = c->local_mr->lkey,
	};
	struct ibv_send_wr *bad;

	wr->sg_list = &sge; /* the sge is read during the call, not later */
	wr->num_sge = 1;
	wr->send_flags = IBV_SEND_SIGNALED;
	int rc = ibv_post_send(c->qp, wr, &bad);
	if (rc)
		fprintf(stderr, "ibv_post_send failed: %s\n", strerror(rc));
	return rc ? -1 : 0;
}

/* Busy-poll one completion from cq, giving up after POLL_TIMEOUT_SEC. */
static int poll_one(struct conn *c, struct ibv_cq *cq, struct ibv_wc *wc,
		    const char *what)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);

	for (unsigned long spin = 1;; spin++) {
		int n = ibv_poll_cq(cq, 1, wc);
		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed while waiting for %s\n", what);
			return -1;
		}
		if (n == 1)
			break;
		if (spin % 65536 == 0) { /* clock and socket checks are not free */
			if (peer_gone(c->sock)) {
				fprintf(stderr, "the peer closed the TCP connection while "
					"we waited for %s\n", what);
				return -1;
			}
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec >= POLL_TIMEOUT_SEC) {
				fprintf(stderr, "timed out after %d s waiting for %s\n",
					POLL_TIMEOUT_SEC, what);
				return -1;
			}
		}
	}
	if (wc->status != IBV_WC_SUCCESS) {
		/* Only wr_id, status, qp_num and vendor_err are valid now. */
		fprintf(stderr, "%s failed: %s (status %d, vendor error 0x%" PRIx32
			", wr_id %" PRIu64 ")\n", what, ibv_wc_status_str(wc->status),
			(int)wc->status, wc->vendor_err, wc->wr_id);
		return -1;
	}
	return 0;
}

/* Wait for the completion of the one send-queue request in flight. */
static int wait_send(struct conn *c, uint64_t wr_id, enum ibv_wc_opcode op,
		     const char *what)
{
	struct ibv_wc wc;
	if (poll_one(c, c->send_cq, &wc, what))
		return -1;
	if (wc.wr_id != wr_id || wc.opcode != op) {
		fprintf(stderr, "%s: unexpected completion (wr_id %" PRIu64
			", opcode %d)\n", what, wc.wr_id, (int)wc.opcode);
		return -1;
	}
	return 0;
}

/* Wait for the next receive completion and check its opcode. */
static int wait_recv(struct conn *c, struct ibv_wc *wc, enum ibv_wc_opcode op,
		     const char *what)
{
	if (poll_one(c, c->recv_cq, wc, what))
		return -1;
	if (wc->wr_id >= RECV_DEPTH || wc->opcode != op) {
		fprintf(stderr, "%s: unexpected completion (wr_id %" PRIu64
			", opcode %d)\n", what, wc->wr_id, (int)wc->opcode);
		return -1;
	}
	return 0;
}

/* Check that a received SEND carried exactly the text we expected. */
static int check_message(struct conn *c, const struct ibv_wc *wc,
			 const char *expect)
{
	const char *got = c->local->recv_buf[wc->wr_id];
	size_t len = strlen(expect) + 1;

	if (wc->byte_len != len || memcmp(got, expect, len) != 0) {
		fprintf(stderr, "expected \"%s\", got %" PRIu32 " bytes\n", expect,
			wc->byte_len);
		return -1;
	}
	return 0;
}

/* SEND a NUL-terminated text, optionally with immediate data. */
static int send_text(struct conn *c, const char *text, int with_imm,
		     uint32_t imm)
{
	struct ibv_send_wr wr;
	uint32_t len = (uint32_t)strlen(text) + 1;

	memcpy(c->local->send_buf, text, len); /* len <= MSG_SIZE by design */
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WRID_SEND;
	wr.opcode = with_imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
	if (with_imm)
		wr.imm_data = htonl(imm); /* carried in network byte order */
	if (post_send(c, &wr, c->local->send_buf, len))
		return -1;
	return wait_send(c, WRID_SEND, IBV_WC_SEND, "SEND");
}

/* Receive one SEND, check its text, and give the buffer back to the RQ. */
static int recv_text(struct conn *c, const char *expect, struct ibv_wc *wc)
{
	if (wait_recv(c, wc, IBV_WC_RECV, "RECV") || check_message(c, wc, expect))
		return -1;
	return post_recv(c, wc->wr_id);
}

/* ------------------------------------------------------------------------ */
/* The protocol                                                             */
/* ------------------------------------------------------------------------ */

static int step1_pingpong(struct conn *c, int server)
{
	struct timespec t0, t1;
	struct ibv_wc wc;
	char ping[MSG_SIZE], pong[MSG_SIZE];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint32_t i = 0; i < c->iters; i++) {
		snprintf(ping, sizeof(ping), "ping %" PRIu32, i);
		snprintf(pong, sizeof(pong), "pong %" PRIu32, i);
		if (server) {
			if (recv_text(c, ping, &wc) || send_text(c, pong, 0, 0))
				return -1;
		} else {
			if (send_text(c, ping, 0, 0) || recv_text(c, pong, &wc))
				return -1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	double us = (double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
	printf("[1] SEND/RECV ping-pong: %" PRIu32 " round trips", c->iters);
	if (!server)
		printf(", %.1f us each on average", us / c->iters);
	printf("\n");
	return 0;
}

static int step2_send_imm(struct conn *c, int server)
{
	const char *text = "a SEND that carries immediate data";
	struct ibv_wc wc;

	if (!server) {
		if (send_text(c, text, 1, IMM_TAG))
			return -1;
		printf("[2] SEND with immediate: sent 0x%08" PRIx32 "\n", IMM_TAG);
		return 0;
	}
	if (wait_recv(c, &wc, IBV_WC_RECV, "RECV with immediate") ||
	    check_message(c, &wc, text))
		return -1;
	if (!(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != IMM_TAG) {
		fprintf(stderr, "[2] expected immediate data 0x%08" PRIx32 "\n", IMM_TAG);
		return -1;
	}
	printf("[2] SEND with immediate: received 0x%08" PRIx32 "\n",
	       ntohl(wc.imm_data));
	return post_recv(c, wc.wr_id);
}

static int step3_write_imm(struct conn *c, int server)
{
	uint32_t len = (uint32_t)sizeof(WRITE_TEXT);
	struct ibv_wc wc;

	if (server) {
		struct ibv_send_wr wr;
		memcpy(c->local->send_buf, WRITE_TEXT, len);
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = WRID_WRITE_IMM;
		wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr.imm_data = htonl(len); /* tell the client how much landed */
		wr.wr.rdma.remote_addr = c->peer.addr + offsetof(struct exposed, write_area);
		wr.wr.rdma.rkey = c->peer.rkey;
		if (post_send(c, &wr, c->local->send_buf, len) ||
		    wait_send(c, WRID_WRITE_IMM, IBV_WC_RDMA_WRITE, "RDMA WRITE with immediate"))
			return -1;
		printf("[3] RDMA WRITE with immediate: wrote %" PRIu32 " bytes\n", len);
		return 0;
	}

	/* The write consumed one of our receives; its buffer holds nothing. */
	if (wait_recv(c, &wc, IBV_WC_RECV_RDMA_WITH_IMM, "RDMA WRITE with immediate"))
		return -1;
	if (!(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != len ||
	    memcmp(c->exposed->write_area, WRITE_TEXT, len) != 0) {
		fprintf(stderr, "[3] the written data or its length is wrong\n");
		return -1;
	}
	printf("[3] RDMA WRITE with immediate: %" PRIu32 " bytes arrived: \"%s\"\n",
	       ntohl(wc.imm_data), c->exposed->write_area);
	return post_recv(c, wc.wr_id);
}

/* Client only: the server's CPU takes no part in steps 4 and 5. */
static int step4_read(struct conn *c)
{
	struct ibv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WRID_READ;
	wr.opcode = IBV_WR_RDMA_READ;
	wr.wr.rdma.remote_addr = c->peer.addr + offsetof(struct exposed, read_area);
	wr.wr.rdma.rkey = c->peer.rkey;
	if (post_send(c, &wr, c->local->read_dst, MSG_SIZE) ||
	    wait_send(c, WRID_READ, IBV_WC_RDMA_READ, "RDMA READ"))
		return -1;
	if (strncmp(c->local->read_dst, READ_TEXT, MSG_SIZE) != 0) {
		fprintf(stderr, "[4] RDMA READ returned unexpected data\n");
		return -1;
	}
	printf("[4] RDMA READ: \"%s\"\n", c->local->read_dst);
	return 0;
}

static int step5_fetch_add(struct conn *c)
{
	struct ibv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = WRID_ATOMIC;
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	wr.wr.atomic.remote_addr = c->peer.addr + offsetof(struct exposed, counter);
	wr.wr.atomic.rkey = c->peer.rkey;
	wr.wr.atomic.compare_add = COUNTER_ADD; /* the amount to add */
	if (post_send(c, &wr, &c->local->atomic_result, sizeof(uint64_t)) ||
	    wait_send(c, WRID_ATOMIC, IBV_WC_FETCH_ADD, "fetch-and-add"))
		return -1;

	/* A plain host-order value, valid now that the completion is in. */
	uint64_t old = c->local->atomic_result;
	if (old != COUNTER_START) {
		fprintf(stderr, "[5] fetch-and-add returned %" PRIu64 ", expected %u\n",
			old, COUNTER_START);
		return -1;
	}
	printf("[5] fetch-and-add: the server's counter was %" PRIu64
	       ", we added %u\n", old, COUNTER_ADD);
	return 0;
}

static int run_client(struct conn *c)
{
	if (step1_pingpong(c, 0) || step2_send_imm(c, 0) ||
	    step3_write_imm(c, 0) || step4_read(c))
		return -1;
	if (c->atomics && c->peer.atomics) {
		if (step5_fetch_add(c))
			return -1;
	} else {
		printf("[5] fetch-and-add: skipped, a device lacks atomics\n");
	}
	/* Step 6: RC delivers in order, so this SEND arrives after all of the above. */
	return send_text(c, "done", 0, 0);
}

static int run_server(struct conn *c)
{
	struct ibv_wc wc;

	if (step1_pingpong(c, 1) || step2_send_imm(c, 1) ||
	    step3_write_imm(c, 1))
		return -1;
	printf("[4] RDMA READ and [5] fetch-and-add: the client works alone\n");
	if (recv_text(c, "done", &wc))
		return -1;
	if (c->atomics && c->peer.atomics) {
		if (c->exposed->counter != COUNTER_START + COUNTER_ADD) {
			fprintf(stderr, "[6] counter is %" PRIu64 ", expected %u\n",
				c->exposed->counter, COUNTER_START + COUNTER_ADD);
			return -1;
		}
		printf("[6] our counter is now %" PRIu64 "\n", c->exposed->counter);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Errors, teardown, main                                                   */
/* ------------------------------------------------------------------------ */

/* After a failure, show any asynchronous events without blocking. */
static void report_async_events(struct ibv_context *ctx)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };

	while (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN)) {
		struct ibv_async_event ev;
		if (ibv_get_async_event(ctx, &ev))
			break;
		fprintf(stderr, "async event: %s\n", ibv_event_type_str(ev.event_type));
		ibv_ack_async_event(&ev);
	}
}

/* Release everything in the reverse order of creation. */
static int teardown(struct conn *c)
{
	int failed = 0, rc;

	if (c->sock >= 0)
		close(c->sock);
	if (c->qp && (rc = ibv_destroy_qp(c->qp))) {
		fprintf(stderr, "ibv_destroy_qp failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (c->recv_cq && (rc = ibv_destroy_cq(c->recv_cq))) {
		fprintf(stderr, "ibv_destroy_cq(recv) failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (c->send_cq && (rc = ibv_destroy_cq(c->send_cq))) {
		fprintf(stderr, "ibv_destroy_cq(send) failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (c->local_mr && (rc = ibv_dereg_mr(c->local_mr))) {
		fprintf(stderr, "ibv_dereg_mr(local) failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (c->exposed_mr && (rc = ibv_dereg_mr(c->exposed_mr))) {
		fprintf(stderr, "ibv_dereg_mr(exposed) failed: %s\n", strerror(rc));
		failed = 1;
	}
	free(c->local);
	free(c->exposed);
	if (c->pd && (rc = ibv_dealloc_pd(c->pd))) {
		fprintf(stderr, "ibv_dealloc_pd failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (c->ctx && ibv_close_device(c->ctx)) {
		fprintf(stderr, "ibv_close_device failed\n");
		failed = 1;
	}
	return failed;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-p port] [-d device] [-g gid_index]              (server)\n"
		"       %s [-p port] [-d device] [-g gid_index] [-n iters] HOST [PORT]\n"
		"                                                      (client)\n",
		prog, prog);
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	int opt, iters_given = 0;

	o->host = NULL;
	o->port = DEFAULT_TCP_PORT;
	o->device = NULL;
	o->iters = DEFAULT_ITERS;
	o->gid_index = 0;
	while ((opt = getopt(argc, argv, "p:n:d:g:")) != -1) {
		switch (opt) {
		case 'p': o->port = optarg; break;
		case 'd': o->device = optarg; break;
		case 'n':
			if (parse_int(optarg, 1, MAX_ITERS, &o->iters))
				return -1;
			iters_given = 1;
			break;
		case 'g':
			if (parse_int(optarg, 0, 255, &o->gid_index))
				return -1;
			break;
		default:
			return -1;
		}
	}
	if (argc - optind > 2)
		return -1;
	if (optind < argc)
		o->host = argv[optind];
	if (optind + 1 < argc)
		o->port = argv[optind + 1];
	if (!o->host && iters_given)
		return -1; /* the client chooses; the server learns it */
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt;
	struct conn c;
	int status = 1;

	if (parse_options(argc, argv, &opt)) {
		usage(argv[0]);
		return 2;
	}
	memset(&c, 0, sizeof(c));
	c.sock = -1;
	c.gid_index = opt.gid_index;
	c.iters = opt.host ? (uint32_t)opt.iters : 0; /* 0: learn it from the client */

	/* The device comes first: without one there is no point in networking. */
	c.ctx = open_device(opt.device);
	if (!c.ctx)
		return 1;

	if (query_port(&c) || create_resources(&c) || qp_to_init(&c))
		goto out;
	/* Receives may be posted from INIT on; post them before anyone can send. */
	for (uint64_t slot = 0; slot < RECV_DEPTH; slot++)
		if (post_recv(&c, slot))
			goto out;

	c.sock = opt.host ? tcp_connect(opt.host, opt.port) : tcp_accept_one(opt.port);
	if (c.sock < 0 || exchange_info(&c))
		goto out;
	if (qp_to_rtr(&c) || qp_to_rts(&c))
		goto out;
	/* A QP drops packets until it is in RTR: wait until the peer's QP is. */
	if (tcp_barrier(c.sock))
		goto out;
	printf("queue pair 0x%06" PRIx32 " is connected (RTS)\n", c.qp->qp_num);

	if (opt.host ? run_client(&c) : run_server(&c))
		goto out;
	/* Nothing may be in flight when either side destroys its QP. */
	if (tcp_barrier(c.sock))
		goto out;
	printf("all steps passed\n");
	status = 0;

out:
	if (status)
		report_async_events(c.ctx);
	if (teardown(&c))
		status = 1;
	return status;
}
