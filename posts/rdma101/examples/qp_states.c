/*
 * qp_states.c - RDMA 101, lesson 2.3.
 *
 * Creates a protection domain, a completion queue and a reliable-connected
 * (RC) queue pair, then walks the QP through RESET -> INIT -> RTR -> RTS by
 * connecting it to itself: the "remote" QP number, LID and GID are our own.
 * After every step it asks the device for the QP's state with ibv_query_qp()
 * and prints it. Finally it moves the QP to ERR and back to RESET, and
 * releases everything in the reverse order of creation.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 -o qp_states qp_states.c -libverbs
 * Run:   ./qp_states        (no arguments)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#define PORT_NUM 1  /* ports are numbered from 1 */
#define GID_INDEX 0 /* the GID table entry we use on RoCE */

/* What a peer would normally send us; here we fill it in with our own values. */
struct peer_info {
	uint32_t qpn;
	uint32_t psn;
	uint16_t lid;
	union ibv_gid gid;
	int use_grh; /* RoCE (or a port that demands it): address by GID */
};

struct resources {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_port_attr port;
};

static struct ibv_context *open_first_device(void)
{
	int num = 0;
	struct ibv_device **list = ibv_get_device_list(&num);

	if (!list) {
		fprintf(stderr, "no RDMA device found (ibv_get_device_list: %s)\n",
			strerror(errno));
		return NULL;
	}
	if (num == 0) {
		fprintf(stderr, "no RDMA device found (the device list is empty)\n");
		ibv_free_device_list(list);
		return NULL;
	}

	/* The name may be NULL by the man page's contract: never print a NULL. */
	const char *name = ibv_get_device_name(list[0]);
	if (!name)
		name = "(unnamed)";

	struct ibv_context *ctx = ibv_open_device(list[0]);
	if (!ctx)
		fprintf(stderr, "ibv_open_device(%s) failed: %s\n", name,
			strerror(errno));
	else
		printf("device %s, port %d\n", name, PORT_NUM);

	ibv_free_device_list(list);
	return ctx;
}

static const char *state_name(enum ibv_qp_state s)
{
	switch (s) {
	case IBV_QPS_RESET: return "RESET";
	case IBV_QPS_INIT:  return "INIT";
	case IBV_QPS_RTR:   return "RTR";
	case IBV_QPS_RTS:   return "RTS";
	case IBV_QPS_SQD:   return "SQD";
	case IBV_QPS_SQE:   return "SQE";
	case IBV_QPS_ERR:   return "ERR";
	default:            return "UNKNOWN";
	}
}

/* Ask the device (not our own bookkeeping) which state the QP is in. */
static int print_state(struct ibv_qp *qp, const char *step)
{
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init_attr;

	int rc = ibv_query_qp(qp, &attr, IBV_QP_STATE, &init_attr);
	if (rc) {
		fprintf(stderr, "ibv_query_qp failed: %s\n", strerror(rc));
		return -1;
	}
	printf("%-28s QP 0x%06" PRIx32 " is in %s\n", step, qp->qp_num,
	       state_name(attr.qp_state));
	return 0;
}

/* Apply one transition and report the state the device now reports. */
static int modify(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		  const char *step)
{
	int rc = ibv_modify_qp(qp, attr, mask); /* returns an errno value */
	if (rc) {
		fprintf(stderr, "%s: ibv_modify_qp failed: %s\n", step, strerror(rc));
		return -1;
	}
	return print_state(qp, step);
}

/* RESET -> INIT: only local choices. */
static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = PORT_NUM;
	/* What a remote peer may do to our memory through this QP. */
	attr.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;

	return modify(qp, &attr,
		      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			      IBV_QP_ACCESS_FLAGS,
		      "RESET -> INIT");
}

/* INIT -> RTR: everything about the receive side and the remote end. */
static int to_rtr(struct ibv_qp *qp, const struct ibv_port_attr *port,
		  const struct peer_info *peer)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = port->active_mtu; /* both ends must agree on this */
	attr.dest_qp_num = peer->qpn;
	attr.rq_psn = peer->psn; /* the first PSN the peer will send */
	attr.max_dest_rd_atomic = 1; /* READs/atomics we serve at once */
	attr.min_rnr_timer = 12; /* encoded delay we ask senders to wait */

	/* The address vector: how to reach the remote port. */
	attr.ah_attr.dlid = peer->lid;
	attr.ah_attr.sl = 0;
	attr.ah_attr.src_path_bits = 0;
	attr.ah_attr.port_num = PORT_NUM;
	if (peer->use_grh) {
		attr.ah_attr.is_global = 1;
		attr.ah_attr.grh.dgid = peer->gid;
		attr.ah_attr.grh.sgid_index = GID_INDEX;
		attr.ah_attr.grh.hop_limit = 1; /* loopback never leaves the host */
	}

	return modify(qp, &attr,
		      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			      IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
		      "INIT -> RTR");
}

/* RTR -> RTS: the send side, its retry policy and our own first PSN. */
static int to_rts(struct ibv_qp *qp, uint32_t my_psn)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = my_psn;
	attr.timeout = 14; /* ack timeout: 4.096 us * 2^14, about 67 ms */
	attr.retry_cnt = 7; /* retransmissions after a timeout (3 bits) */
	attr.rnr_retry = 7; /* 7 means "retry for ever" on RNR NAKs */
	attr.max_rd_atomic = 1; /* READs/atomics we keep in flight */

	return modify(qp, &attr,
		      IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			      IBV_QP_MAX_QP_RD_ATOMIC,
		      "RTR -> RTS");
}

/* Any state but RESET may be moved to ERR; any state may be moved to RESET. */
static int to_state(struct ibv_qp *qp, enum ibv_qp_state s, const char *step)
{
	struct ibv_qp_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = s;
	return modify(qp, &attr, IBV_QP_STATE, step);
}

/* Fill in the "peer" with our own address: QPN, LID and, if needed, GID. */
static int describe_self(struct resources *r, uint32_t psn,
			 struct peer_info *self)
{
	memset(self, 0, sizeof(*self));
	self->qpn = r->qp->qp_num;
	self->psn = psn;
	self->lid = r->port.lid;
	self->use_grh = r->port.link_layer == IBV_LINK_LAYER_ETHERNET ||
			(r->port.flags & IBV_QPF_GRH_REQUIRED);

	/* ibv_query_gid() returns -1 on error and does not promise to set errno. */
	if (self->use_grh &&
	    ibv_query_gid(r->ctx, PORT_NUM, GID_INDEX, &self->gid)) {
		fprintf(stderr, "ibv_query_gid(port %d, index %d) failed\n",
			PORT_NUM, GID_INDEX);
		return -1;
	}
	printf("link layer %s, LID 0x%04" PRIx16 ", %s, first PSN 0x%06" PRIx32 "\n",
	       r->port.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)"
							     : "InfiniBand",
	       self->lid,
	       self->use_grh ? "addressing by GID" : "addressing by LID",
	       self->psn);
	return 0;
}

static int create_objects(struct resources *r)
{
	int rc = ibv_query_port(r->ctx, PORT_NUM, &r->port);
	if (rc) {
		fprintf(stderr, "ibv_query_port failed: %s\n", strerror(rc));
		return -1;
	}
	if (r->port.state != IBV_PORT_ACTIVE)
		fprintf(stderr, "warning: port %d is %s, INIT -> RTR may fail\n",
			PORT_NUM, ibv_port_state_str(r->port.state));

	r->pd = ibv_alloc_pd(r->ctx);
	if (!r->pd) {
		fprintf(stderr, "ibv_alloc_pd failed: %s\n", strerror(errno));
		return -1;
	}

	/* One small CQ serves both queues; nothing is posted in this program. */
	r->cq = ibv_create_cq(r->ctx, 16, NULL, NULL, 0);
	if (!r->cq) {
		fprintf(stderr, "ibv_create_cq failed: %s\n", strerror(errno));
		return -1;
	}

	struct ibv_qp_init_attr init;
	memset(&init, 0, sizeof(init));
	init.send_cq = r->cq;
	init.recv_cq = r->cq;
	init.qp_type = IBV_QPT_RC;
	init.sq_sig_all = 0;
	init.cap.max_send_wr = 8;
	init.cap.max_recv_wr = 8;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;

	r->qp = ibv_create_qp(r->pd, &init);
	if (!r->qp) {
		fprintf(stderr, "ibv_create_qp failed: %s\n", strerror(errno));
		return -1;
	}
	/* The device may round the queue sizes up; init.cap now holds the truth. */
	printf("created RC QP 0x%06" PRIx32 " (send WRs %" PRIu32
	       ", recv WRs %" PRIu32 ")\n",
	       r->qp->qp_num, init.cap.max_send_wr, init.cap.max_recv_wr);
	return 0;
}

/* Release in the reverse order of creation: QP, CQ, PD, context. */
static int release(struct resources *r)
{
	int failed = 0;
	int rc;

	if (r->qp && (rc = ibv_destroy_qp(r->qp))) {
		fprintf(stderr, "ibv_destroy_qp failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (r->cq && (rc = ibv_destroy_cq(r->cq))) {
		fprintf(stderr, "ibv_destroy_cq failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (r->pd && (rc = ibv_dealloc_pd(r->pd))) {
		fprintf(stderr, "ibv_dealloc_pd failed: %s\n", strerror(rc));
		failed = 1;
	}
	if (r->ctx && ibv_close_device(r->ctx)) {
		fprintf(stderr, "ibv_close_device failed: %s\n", strerror(errno));
		failed = 1;
	}
	return failed;
}

int main(void)
{
	struct resources r;
	struct peer_info self;
	uint32_t psn;
	int status = 1;

	memset(&r, 0, sizeof(r));
	r.ctx = open_first_device();
	if (!r.ctx)
		return 1;

	if (create_objects(&r) || print_state(r.qp, "after ibv_create_qp"))
		goto out;

	/* PSNs are 24 bits; real programs pick a random start. */
	psn = (uint32_t)time(NULL) & 0xffffff;
	if (describe_self(&r, psn, &self))
		goto out;

	if (to_init(r.qp) || to_rtr(r.qp, &r.port, &self) || to_rts(r.qp, psn))
		goto out;

	if (to_state(r.qp, IBV_QPS_ERR, "RTS -> ERR") ||
	    to_state(r.qp, IBV_QPS_RESET, "ERR -> RESET"))
		goto out;
	status = 0;

out:
	if (release(&r))
		status = 1;
	return status;
}
