/*
 * course.c - RDMA 101: the helpers declared in course.h, read in lesson 2.6.
 *
 * Build it into a program: gcc -std=c11 -Wall -Wextra -O2 prog.c course.c -o prog -libverbs
 */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo, getopt, nanosleep, sysconf */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

_Noreturn void die(const char *what)
{
	die_rc(what, errno);
}

_Noreturn void die_rc(const char *what, int rc)
{
	fprintf(stderr, "%s: %s\n", what, strerror(rc));
	exit(1);
}

long number(const char *what, const char *text, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: '%s' is not a whole number from %ld to %ld\n", what, text, lo, hi);
		exit(1);
	}
	return v;
}

void parse_options(int argc, char *argv[], struct options *o)
{
	int opt;

	*o = (struct options){ .gid_index = -1, .tcp_port = COURSE_TCP_PORT };
	while ((opt = getopt(argc, argv, "d:g:p:")) != -1) {
		if (opt == 'd')
			o->device = optarg;
		else if (opt == 'g')
			o->gid_index = (int)number("-g", optarg, 0, UINT8_MAX);
		else if (opt == 'p')
			o->tcp_port = (int)number("-p", optarg, 1, 65535);
		else
			break;
	}
	if (opt != -1 || argc - optind > 1) {
		fprintf(stderr, "usage: %s [-d device] [-g gid_index] [-p tcp_port] [HOST]\n", argv[0]);
		exit(1);
	}
	o->host = optind < argc ? argv[optind] : NULL;
}

struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	int num = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&num);
	if (!list) {
		fprintf(stderr, "no RDMA device found (ibv_get_device_list: %s)\n",
			strerror(errno));
		exit(1);
	}
	for (int i = 0; i < num && !dev; i++) {
		const char *n = ibv_get_device_name(list[i]);

		if (!name || (n && strcmp(n, name) == 0))
			dev = list[i];
	}
	if (!dev) {
		if (num == 0)
			fprintf(stderr, "no RDMA device found (the device list is empty)\n");
		else
			fprintf(stderr, "no RDMA device named %s\n", name);
		ibv_free_device_list(list);
		exit(1);
	}
	struct ibv_context *ctx = ibv_open_device(dev);
	int err = errno;

	ibv_free_device_list(list); /* an opened device stays valid */
	if (!ctx)
		die_rc("ibv_open_device", err);
	return ctx;
}

struct ibv_pd *open_pd_from_args(int argc, char *argv[], struct options *o, int *gid_index)
{
	parse_options(argc, argv, o);
	struct ibv_context *ctx = open_device(o->device);
	*gid_index = choose_gid(ctx, COURSE_IB_PORT, o->gid_index);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	return pd;
}

const char *device_name(struct ibv_context *ctx)
{
	const char *n = ibv_get_device_name(ctx->device);

	return n ? n : "(unnamed)";
}

void release_all(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
	      struct ibv_pd *pd, struct ibv_context *ctx)
{
	int rc;

	if (qp && (rc = ibv_destroy_qp(qp)))
		die_rc("ibv_destroy_qp", rc);
	if (cq && (rc = ibv_destroy_cq(cq)))
		die_rc("ibv_destroy_cq", rc);
	if (mr && (rc = ibv_dereg_mr(mr)))
		die_rc("ibv_dereg_mr", rc);
	if (pd && (rc = ibv_dealloc_pd(pd)))
		die_rc("ibv_dealloc_pd", rc);
	if (ctx && ibv_close_device(ctx))
		die("ibv_close_device");
}

void *alloc_buffer(size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t p = page > 0 ? (size_t)page : 4096;
	size_t size = (len + p - 1) / p * p;
	void *buf = aligned_alloc(p, size ? size : p);

	if (!buf) {
		fprintf(stderr, "out of memory for a %zu-byte buffer\n", len);
		exit(1);
	}
	memset(buf, 0, size ? size : p);
	return buf;
}

static int is_ipv4_mapped(const union ibv_gid *gid)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

int choose_gid(struct ibv_context *ctx, uint8_t port, int requested)
{
	struct ibv_port_attr pa;
	struct ibv_gid_entry e;
	int rc = ibv_query_port(ctx, port, &pa);

	if (rc)
		die_rc("ibv_query_port", rc);
	if (requested >= 0) {
		rc = ibv_query_gid_ex(ctx, port, (uint32_t)requested, &e, 0);
		if (rc)
			die_rc("ibv_query_gid_ex (the requested GID index)", rc);
		return requested;
	}
	if (pa.link_layer != IBV_LINK_LAYER_ETHERNET && !(pa.flags & IBV_QPF_GRH_REQUIRED))
		return -1; /* InfiniBand inside one subnet: the LID is enough */

	int v2 = -1, any = -1;
	/* An address vector's sgid_index is 8 bits: higher entries cannot be used. */
	for (int i = 0; i < pa.gid_tbl_len && i <= UINT8_MAX; i++) {
		if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &e, 0))
			continue; /* ENODATA: an empty slot */
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && is_ipv4_mapped(&e.gid))
			return i; /* routable, and what peers on IPv4 expect */
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && v2 < 0)
			v2 = i;
		if (any < 0)
			any = i;
	}
	if (v2 >= 0)
		return v2;
	if (any >= 0)
		return any;
	fprintf(stderr, "port %u has no GID: list its table with ibv_devinfo -v\n",
		(unsigned)port);
	exit(1);
}

void format_gid(const union ibv_gid *gid, char out[46])
{
	if (!inet_ntop(AF_INET6, gid->raw, out, 46))
		snprintf(out, 46, "(unprintable)");
}

void local_info(struct ibv_qp *qp, uint8_t port, int gid_index,
		const struct ibv_mr *mr, struct conn_info *out)
{
	struct ibv_port_attr pa;
	struct ibv_device_attr da;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = ibv_query_port(qp->context, port, &pa)))
		die_rc("ibv_query_port", rc);
	if ((rc = ibv_query_device(qp->context, &da)))
		die_rc("ibv_query_device", rc);
	if (gid_index >= 0) {
		struct ibv_gid_entry e;

		if ((rc = ibv_query_gid_ex(qp->context, port, (uint32_t)gid_index, &e, 0)))
			die_rc("ibv_query_gid_ex", rc);
		out->gid = e.gid;
	}
	if (getrandom(&out->psn, sizeof(out->psn), 0) != sizeof(out->psn))
		die("getrandom");
	out->psn &= 0xffffff; /* PSNs are 24 bits */
	out->qpn = qp->qp_num;
	out->lid = pa.lid;
	out->mtu = (uint8_t)pa.active_mtu;
	out->rd_atomic = (uint8_t)(da.max_qp_rd_atom < COURSE_READ_DEPTH ?
				   da.max_qp_rd_atom : COURSE_READ_DEPTH);
	if (mr) {
		out->addr = (uint64_t)(uintptr_t)mr->addr;
		out->rkey = mr->rkey;
		out->len = (uint32_t)mr->length;
	}
}

void print_info(const char *label, const struct conn_info *ci)
{
	char gid[46];

	format_gid(&ci->gid, gid);
	printf("%s QPN 0x%06" PRIx32 ", PSN 0x%06" PRIx32 ", LID %" PRIu16
	       ", GID %s, MTU %d, read depth %u",
	       label, ci->qpn, ci->psn, ci->lid, gid, 128 << ci->mtu,
	       (unsigned)ci->rd_atomic);
	if (ci->len)
		printf(", buffer 0x%" PRIx64 " rkey 0x%" PRIx32 " (%" PRIu32 " bytes)",
		       ci->addr, ci->rkey, ci->len);
	printf("\n");
}

/* read() and write() on a stream socket may move fewer bytes than asked. */
static void write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write to the peer");
		p += n;
		len -= (size_t)n;
	}
}

static void read_all(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read from the peer");
		if (n == 0) {
			fprintf(stderr, "the peer closed the connection\n");
			exit(1);
		}
		p += n;
		len -= (size_t)n;
	}
}

/* A socket of this family listening on port at every local address; -1 if it cannot be made. */
static int listen_on(int family, int port)
{
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr = { .s_addr = htonl(INADDR_ANY) } };
	int one = 1, zero = 0;
	int fd = socket(family, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	/* Reuse the port at once after a run; an IPv6 socket takes IPv4 clients too. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero))))
		die("setsockopt");
	if (family == AF_INET6 ? bind(fd, (struct sockaddr *)&v6, sizeof(v6)) :
				 bind(fd, (struct sockaddr *)&v4, sizeof(v4)))
		die("bind");
	if (listen(fd, 1))
		die("listen");
	return fd;
}

int tcp_listen_accept(int port)
{
	/* One IPv6 socket serves IPv6 and IPv4 clients; a host without IPv6 gets IPv4 alone. */
	int fd = listen_on(AF_INET6, port);

	if (fd < 0 && errno == EAFNOSUPPORT)
		fd = listen_on(AF_INET, port);
	if (fd < 0)
		die("socket");
	printf("waiting for a connection on TCP port %d\n", port);
	int conn = accept(fd, NULL, NULL);
	if (conn < 0)
		die("accept");
	close(fd);
	return conn;
}

int tcp_connect(const char *host, int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	char service[8];
	int err = 0;

	snprintf(service, sizeof(service), "%d", port);
	int rc = getaddrinfo(host, service, &hints, &res);
	if (rc) {
		fprintf(stderr, "getaddrinfo(%s): %s\n", host, gai_strerror(rc));
		exit(1);
	}
	/* The server may not be listening yet: retry refused connections for a while. */
	for (int attempt = 0; attempt < 100; attempt++) {
		for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
			int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);

			if (fd < 0) {
				err = errno;
				continue;
			}
			if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
				freeaddrinfo(res);
				return fd;
			}
			err = errno;
			close(fd);
		}
		if (err != ECONNREFUSED)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 100 * 1000 * 1000 }, NULL);
	}
	freeaddrinfo(res);
	fprintf(stderr, "cannot connect to %s port %d: %s\n", host, port, strerror(err));
	exit(1);
}

/* The wire format: fixed order and sizes, integers big-endian, no padding. */
#define WIRE_SIZE (4 + 4 + 2 + 1 + 1 + 16 + 8 + 4 + 4)

static uint8_t *put(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
	return p + bytes;
}

static const uint8_t *get(const uint8_t *p, uint64_t *v, int bytes)
{
	*v = 0;
	for (int i = 0; i < bytes; i++)
		*v = *v << 8 | p[i];
	return p + bytes;
}

void exchange_info(int sock, const struct conn_info *mine, struct conn_info *peer)
{
	uint8_t out[WIRE_SIZE], in[WIRE_SIZE], *o = out;
	const uint8_t *i = in;
	uint64_t v;

	o = put(o, mine->qpn, 4);
	o = put(o, mine->psn, 4);
	o = put(o, mine->lid, 2);
	o = put(o, mine->mtu, 1);
	o = put(o, mine->rd_atomic, 1);
	memcpy(o, mine->gid.raw, 16); /* a GID is already a string of bytes */
	o = put(o + 16, mine->addr, 8);
	o = put(o, mine->rkey, 4);
	put(o, mine->len, 4);

	/* 44 bytes fit in any socket buffer: both sides may write first. */
	write_all(sock, out, sizeof(out));
	read_all(sock, in, sizeof(in));

	memset(peer, 0, sizeof(*peer));
	i = get(i, &v, 4), peer->qpn = (uint32_t)v;
	i = get(i, &v, 4), peer->psn = (uint32_t)v;
	i = get(i, &v, 2), peer->lid = (uint16_t)v;
	i = get(i, &v, 1), peer->mtu = (uint8_t)v;
	i = get(i, &v, 1), peer->rd_atomic = (uint8_t)v;
	memcpy(peer->gid.raw, i, 16);
	i = get(i + 16, &peer->addr, 8);
	i = get(i, &v, 4), peer->rkey = (uint32_t)v;
	get(i, &v, 4), peer->len = (uint32_t)v;
}

void tcp_barrier(int sock)
{
	char c = 'R';

	write_all(sock, &c, 1);
	read_all(sock, &c, 1);
}

void qp_to_init(struct ibv_qp *qp, uint8_t port, int access)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = port,
		.qp_access_flags = (unsigned)access, /* what the peer may do here */
	};
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					   IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (rc)
		die_rc("ibv_modify_qp(RESET -> INIT)", rc);
}

void qp_to_rtr(struct ibv_qp *qp, uint8_t port, int gid_index,
	       const struct conn_info *mine, const struct conn_info *peer)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		/* Both ends must use the same MTU: the smaller active one. */
		.path_mtu = mine->mtu < peer->mtu ? mine->mtu : peer->mtu,
		.dest_qp_num = peer->qpn,
		.rq_psn = peer->psn,             /* the first PSN the peer sends */
		.max_dest_rd_atomic = mine->rd_atomic, /* what we told the peer */
		.min_rnr_timer = 12,             /* ask senders to wait 0.64 ms */
		.ah_attr = { .dlid = peer->lid, .sl = 0, .port_num = port },
	};
	if (gid_index >= 0) {
		attr.ah_attr.is_global = 1;
		attr.ah_attr.grh.dgid = peer->gid;
		attr.ah_attr.grh.sgid_index = (uint8_t)gid_index;
		attr.ah_attr.grh.hop_limit = 64;    /* on RoCE v2 Linux puts the route's TTL here */
		attr.ah_attr.grh.traffic_class = 0; /* the default class */
	}
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
					   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		die_rc("ibv_modify_qp(INIT -> RTR)", rc);
}

uint8_t course_ack_timeout = 17; /* about 0.54 s; course.h says why */

void qp_to_rts(struct ibv_qp *qp, const struct conn_info *mine,
	       const struct conn_info *peer)
{
	struct ibv_device_attr da;
	int rc = ibv_query_device(qp->context, &da);

	if (rc)
		die_rc("ibv_query_device", rc);
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = mine->psn,
		.timeout = course_ack_timeout, /* wait at least 4.096 us * 2^timeout for an ACK */
		.retry_cnt = 6, /* then retransmit; 6 times, then fail the request */
		.rnr_retry = 6, /* finite: a missing receive becomes an error */
		/* READs/atomics in flight: no more than the peer serves. */
		.max_rd_atomic = (uint8_t)(peer->rd_atomic < da.max_qp_init_rd_atom ?
					   peer->rd_atomic : da.max_qp_init_rd_atom),
	};
	rc = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
				      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				      IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		die_rc("ibv_modify_qp(RTR -> RTS)", rc);
}

int connect_qp(struct ibv_qp *qp, uint8_t port, int gid_index, const struct ibv_mr *mr,
	       const char *host, int tcp_port, struct conn_info *mine, struct conn_info *peer)
{
	int sock = host ? tcp_connect(host, tcp_port) : tcp_listen_accept(tcp_port);

	local_info(qp, port, gid_index, mr, mine);
	exchange_info(sock, mine, peer);
	qp_to_rtr(qp, port, gid_index, mine, peer);
	qp_to_rts(qp, mine, peer);
	tcp_barrier(sock); /* both QPs are in RTS: either side may start */
	return sock;
}

void post_send_or_die(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad = NULL;
	int rc = ibv_post_send(qp, wr, &bad); /* returns an errno value */

	if (rc) {
		fprintf(stderr, "ibv_post_send refused wr_id %" PRIu64 ": %s\n",
			bad ? bad->wr_id : UINT64_MAX, strerror(rc));
		exit(1);
	}
}

const char *wc_status_name(enum ibv_wc_status status)
{
	static const char *const names[] = {
		"IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
		"IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR",
		"IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR",
		"IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
		"IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR",
		"IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR",
		"IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR",
		"IBV_WC_GENERAL_ERR", "IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE",
	};

	if ((unsigned)status < sizeof(names) / sizeof(names[0]))
		return names[status];
	return "IBV_WC_(unknown)";
}

int wait_completion(struct ibv_cq *cq, struct ibv_wc *wc)
{
	time_t deadline = time(NULL) + COURSE_WAIT_SECONDS;
	int n;

	while ((n = ibv_poll_cq(cq, 1, wc)) == 0) {
		if (time(NULL) > deadline) {
			fprintf(stderr, "no completion within %d seconds\n", COURSE_WAIT_SECONDS);
			exit(1);
		}
		sched_yield(); /* Soft-RoCE runs on these CPUs too */
	}
	if (n < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	if (wc->status != IBV_WC_SUCCESS) {
		fprintf(stderr, "wr_id %" PRIu64 ": %s (%s)\n", wc->wr_id,
			wc_status_name(wc->status), ibv_wc_status_str(wc->status));
		return -1;
	}
	return 0;
}
