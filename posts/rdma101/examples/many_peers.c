/*
 * many_peers.c - RDMA 101, lesson 4.4.
 *
 * One server, many clients, one pool of receive buffers. The server gives
 * every client an RC QP of its own, but all of them take receives from one
 * shared receive queue (SRQ) and report to one CQ. A completion's qp_num
 * names the QP a message came in on; a table maps QP numbers to peers, filled
 * from each peer's first message ("hello NAME").
 *
 * The server refills the pool in batches: it arms the SRQ's limit, and when
 * fewer receives than that are left the device raises the async event
 * IBV_EVENT_SRQ_LIMIT_REACHED (once); the server then reposts every buffer
 * it has finished with, as one list, and arms the limit again.
 *
 * A client started with -k vanishes on purpose (no goodbye) after that many
 * messages. When a client of the same name connects again it comes on a new
 * QP, and the table still points the name at the old one: the server retires
 * the old QP and replaces the entry. A QP on an SRQ is retired in the order the
 * InfiniBand specification recommends: to the error state, wait for the async
 * event IBV_EVENT_QP_LAST_WQE_REACHED, poll the CQ empty, then destroy it.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 many_peers.c course.c -o many_peers -libverbs
 * Run:   ./many_peers [-d dev] [-g gid] [-p port] [-c peers]                   (server)
 *        ./many_peers [-d dev] [-g gid] [-p port] [-n messages] [-k vanish_after]
 *                     -N name server_host                                       (client)
 */
#define _POSIX_C_SOURCE 200809L /* getopt */

#include <netinet/in.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define MSG 64        /* bytes in a message, and in a receive buffer */
#define POOL 16       /* receive buffers, shared by every peer */
#define LIMIT 8       /* the SRQ's low watermark */
#define MAX_QPS 16
#define LAST_WQE_WAIT_MS 1000 /* far longer than a device takes; some never send the event */

struct peer {
	char name[16];
	struct ibv_qp *qp; /* the QP it talks on now */
	long messages;
};

struct server {
	struct ibv_context *ctx;
	int gid;                /* the GID index to address clients with */
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_mr *mr;
	char *pool;
	int done[POOL], ndone;  /* buffers read and not yet reposted */
	struct ibv_qp *qps[MAX_QPS]; /* every QP created; NULL once destroyed */
	bool stale[MAX_QPS];          /* to be retired: its peer is gone */
	bool last_wqe[MAX_QPS];       /* IBV_EVENT_QP_LAST_WQE_REACHED came for it */
	int nqps;
	struct peer peers[MAX_QPS];
	int npeers, byes, refills;
};

/* Repost the finished buffers with one call, as a linked list. */
static void refill(struct server *s)
{
	struct ibv_recv_wr wr[POOL], *bad;
	struct ibv_sge sge[POOL];

	for (int i = 0; i < s->ndone; i++) {
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)(s->pool + s->done[i] * MSG),
					   .length = MSG, .lkey = s->mr->lkey };
		wr[i] = (struct ibv_recv_wr){ .wr_id = (uint64_t)s->done[i], .sg_list = &sge[i],
					      .num_sge = 1, .next = i + 1 < s->ndone ? &wr[i + 1] : NULL };
	}
	int rc = s->ndone ? ibv_post_srq_recv(s->srq, wr, &bad) : 0;

	if (rc)
		die_rc("ibv_post_srq_recv", rc);
	s->ndone = 0;
	/* Arm the low watermark again: it fires once per arming. */
	struct ibv_srq_attr attr = { .srq_limit = LIMIT };

	if ((rc = ibv_modify_srq(s->srq, &attr, IBV_SRQ_LIMIT)))
		die_rc("ibv_modify_srq(IBV_SRQ_LIMIT)", rc);
}

static void on_async_event(struct server *s)
{
	struct ibv_async_event ev;

	if (ibv_get_async_event(s->ctx, &ev))
		die("ibv_get_async_event");
	enum ibv_event_type type = ev.event_type;
	struct ibv_qp *qp = type == IBV_EVENT_QP_LAST_WQE_REACHED ? ev.element.qp : NULL;
	int i = 0;

	ibv_ack_async_event(&ev);
	while (qp && i < s->nqps && !(s->stale[i] && s->qps[i] == qp))
		i++;
	if (type == IBV_EVENT_SRQ_LIMIT_REACHED) {
		s->refills++;
		refill(s);
	} else if (qp && i < s->nqps) {
		s->last_wqe[i] = true; /* retire_stale() waits for it */
	} else {
		printf("async event: %s\n", ibv_event_type_str(type));
	}
}

/* A client connects: its own QP, whose receives come from the shared queue. */
static void accept_client(struct server *s, int listener)
{
	int sock = accept(listener, NULL, NULL);

	if (sock < 0)
		die("accept");
	if (s->nqps == MAX_QPS) {
		fprintf(stderr, "too many connections\n");
		exit(1);
	}
	struct ibv_qp_init_attr qa = {
		.send_cq = s->cq, .recv_cq = s->cq, .srq = s->srq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_send_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(s->pd, &qa);

	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, 0);
	struct conn_info mine, peer;

	local_info(qp, COURSE_IB_PORT, s->gid, NULL, &mine);
	exchange_info(sock, &mine, &peer);
	qp_to_rtr(qp, COURSE_IB_PORT, s->gid, &mine, &peer);
	qp_to_rts(qp, &mine, &peer);
	/*
	 * Should the pool run dry before the server refills it, each sender waits
	 * the longest RNR time (655 ms) per try, so that its rnr_retry of 6 (set by
	 * the client's qp_to_rts) outlasts a slow refill instead of failing the send.
	 */
	struct ibv_qp_attr attr = { .min_rnr_timer = 0 };
	int rc = ibv_modify_qp(qp, &attr, IBV_QP_MIN_RNR_TIMER);

	if (rc)
		die_rc("ibv_modify_qp(min_rnr_timer)", rc);
	tcp_barrier(sock);
	close(sock); /* connected: this protocol needs no side channel after that */
	s->qps[s->nqps++] = qp;
}

static int qp_index(struct server *s, uint32_t qpn)
{
	for (int i = 0; i < s->nqps; i++)
		if (s->qps[i] && s->qps[i]->qp_num == qpn)
			return i;
	return -1;
}

/* The first message names the peer; a name seen before on another QP means a restart. */
static void on_hello(struct server *s, struct ibv_qp *qp, const char *name)
{
	struct peer *p = NULL;

	for (int i = 0; i < s->npeers; i++)
		if (!strcmp(s->peers[i].name, name))
			p = &s->peers[i];
	if (!p) {
		p = &s->peers[s->npeers++];
		snprintf(p->name, sizeof(p->name), "%s", name);
		printf("peer %s: QPN 0x%06" PRIx32 "\n", name, qp->qp_num);
	} else {
		printf("peer %s again, now on QPN 0x%06" PRIx32 "; the table still had QPN 0x%06" PRIx32
		       " (%ld messages, no goodbye)\n", name, qp->qp_num, p->qp->qp_num, p->messages);
		printf("  so it restarted: the old QP is retired and the entry is replaced\n");
		s->stale[qp_index(s, p->qp->qp_num)] = true; /* retire_stale() takes it down */
	}
	p->qp = qp;
	p->messages = 0;
}

static void on_completion(struct server *s, const struct ibv_wc *wc)
{
	int q = qp_index(s, wc->qp_num);

	if (q >= 0 && s->stale[q]) {
		/* A receive a retired QP had taken, flushed or not: its buffer returns to the pool. */
		s->done[s->ndone++] = (int)wc->wr_id;
		return;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		fprintf(stderr, "QPN 0x%06" PRIx32 ": %s\n", wc->qp_num, wc_status_name(wc->status));
		exit(1);
	}
	const char *text = s->pool + wc->wr_id * MSG;
	struct ibv_qp *qp = q >= 0 ? s->qps[q] : NULL;
	struct peer *p = NULL;

	for (int i = 0; i < s->npeers; i++)
		if (s->peers[i].qp == qp)
			p = &s->peers[i];
	if (!strncmp(text, "hello ", 6)) {
		on_hello(s, qp, text + 6);
	} else if (!p) {
		fprintf(stderr, "a message on QPN 0x%06" PRIx32 ", which no peer has\n", wc->qp_num);
		exit(1);
	} else if (!strcmp(text, "bye")) {
		s->byes++;
		printf("peer %s: goodbye after %ld messages\n", p->name, p->messages);
	} else {
		p->messages++;
	}
	s->done[s->ndone++] = (int)wc->wr_id;
}

/* Handle every completion in the CQ; returns how many there were. */
static int poll_all(struct server *s)
{
	struct ibv_wc wc[16];
	int n, total = 0;

	while ((n = ibv_poll_cq(s->cq, 16, wc)) > 0) {
		for (int i = 0; i < n; i++)
			on_completion(s, &wc[i]);
		total += n;
	}
	if (n < 0) {
		fprintf(stderr, "ibv_poll_cq failed\n");
		exit(1);
	}
	return total;
}

/* One turn of the server: read the completions, then wait up to 1 ms for a client or an event. */
static void serve_once(struct server *s, int listener)
{
	struct pollfd fds[2] = { { .fd = listener, .events = POLLIN },
				 { .fd = s->ctx->async_fd, .events = POLLIN } };

	if (poll(fds, 2, poll_all(s) ? 0 : 1) > 0) {
		if (fds[0].revents & POLLIN)
			accept_client(s, listener);
		if (fds[1].revents & POLLIN)
			on_async_event(s);
	}
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/*
 * Retire the stale QPs as the InfiniBand specification recommends for a QP on
 * an SRQ (section 10.3.1): to the error state; wait for the async event
 * IBV_EVENT_QP_LAST_WQE_REACHED, which comes after the completion of the last
 * receive the QP took from the SRQ; poll the CQ empty; only then destroy it.
 * Destroyed sooner, a QP may lose a receive it had taken, and the pool its
 * buffer. The wait has a limit: Soft-RoCE before Linux 6.5 never sends the
 * event. Meanwhile the other peers are served, but no new client accepted.
 */
static void retire_stale(struct server *s)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	bool in_err[MAX_QPS] = { false };
	int waiting = 0, rc;

	for (int i = 0; i < s->nqps; i++)
		if (s->stale[i]) {
			if ((rc = ibv_modify_qp(s->qps[i], &attr, IBV_QP_STATE)))
				die_rc("ibv_modify_qp(ERR)", rc);
			in_err[i] = true;
			waiting++;
		}
	if (!waiting)
		return;
	long long end = now_ms() + LAST_WQE_WAIT_MS;

	while (waiting && now_ms() < end) {
		serve_once(s, -1); /* poll() skips a negative fd */
		waiting = 0;
		for (int i = 0; i < s->nqps; i++)
			waiting += in_err[i] && !s->last_wqe[i];
	}
	poll_all(s);
	for (int i = 0; i < s->nqps; i++) {
		if (!in_err[i])
			continue;
		if (s->last_wqe[i])
			printf("QPN 0x%06" PRIx32 ": last WQE reached; destroyed\n", s->qps[i]->qp_num);
		else
			printf("QPN 0x%06" PRIx32 ": no last-WQE event within %d ms; destroyed anyway\n",
			       s->qps[i]->qp_num, LAST_WQE_WAIT_MS);
		if ((rc = ibv_destroy_qp(s->qps[i])))
			die_rc("ibv_destroy_qp", rc);
		s->qps[i] = NULL;
		s->stale[i] = false;
	}
}

static int listen_on(int port)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	int one = 1, zero = 0, fd = socket(AF_INET6, SOCK_STREAM, 0);

	if (fd < 0)
		die("socket");
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		die("setsockopt");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, MAX_QPS))
		die("bind/listen");
	printf("waiting for clients on TCP port %d\n", port);
	return fd;
}

static void run_server(struct ibv_context *ctx, int gid_req, int port, int expected)
{
	struct server s = { .ctx = ctx, .gid = choose_gid(ctx, COURSE_IB_PORT, gid_req) };

	if (!(s.pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
	s.pool = alloc_buffer(POOL * MSG);
	if (!(s.mr = ibv_reg_mr(s.pd, s.pool, POOL * MSG, IBV_ACCESS_LOCAL_WRITE)))
		die("ibv_reg_mr");
	if (!(s.cq = ibv_create_cq(ctx, POOL + MAX_QPS, NULL, NULL, 0)))
		die("ibv_create_cq");
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = POOL, .max_sge = 1 } };

	if (!(s.srq = ibv_create_srq(s.pd, &sa)))
		die("ibv_create_srq");
	for (int i = 0; i < POOL; i++)
		s.done[s.ndone++] = i;
	refill(&s);
	printf("one SRQ of %d receive buffers (%d bytes each), low watermark %d, one CQ\n",
	       POOL, MSG, LIMIT);

	int listener = listen_on(port);

	while (s.byes < expected) {
		serve_once(&s, listener);
		retire_stale(&s);
	}
	close(listener);
	printf("%d peers said goodbye; %d QPs were created; the pool was refilled %d times\n",
	       expected, s.nqps, s.refills);
	printf("receive memory: %d buffers (%d bytes) served them all; one receive queue of %d per QP would hold %d\n",
	       POOL, POOL * MSG, POOL, s.nqps * POOL);
	for (int i = 0; i < s.nqps; i++)
		s.stale[i] = s.qps[i] != NULL;
	retire_stale(&s);
	int rc = ibv_destroy_srq(s.srq);

	if (rc)
		die_rc("ibv_destroy_srq", rc);
	release_all(NULL, s.cq, s.mr, s.pd, NULL);
	free(s.pool);
}

static void send_text(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr, const char *text)
{
	char *buf = mr->addr;
	struct ibv_wc wc;

	snprintf(buf, MSG, "%s", text);
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = MSG, .lkey = mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	post_send_or_die(qp, &wr);
	if (wait_completion(cq, &wc))
		exit(1);
}

static void run_client(struct ibv_context *ctx, const struct options *o, const char *name,
		       int messages, int vanish_after)
{
	int gid = choose_gid(ctx, COURSE_IB_PORT, o->gid_index);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	if (!pd)
		die("ibv_alloc_pd");
	char *buf = alloc_buffer(MSG);
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, MSG, IBV_ACCESS_LOCAL_WRITE);
	struct ibv_cq *cq = ibv_create_cq(ctx, 2, NULL, NULL, 0);

	if (!mr || !cq)
		die("ibv_reg_mr/ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &qa);

	if (!qp)
		die("ibv_create_qp");
	qp_to_init(qp, COURSE_IB_PORT, 0);
	struct conn_info mine, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid, NULL, o->host, o->tcp_port, &mine, &peer);
	char text[MSG];

	close(sock);
	printf("%s: QPN 0x%06" PRIx32 " connected to the server's QPN 0x%06" PRIx32 "\n",
	       name, mine.qpn, peer.qpn);
	snprintf(text, sizeof(text), "hello %s", name);
	send_text(qp, cq, mr, text);
	for (int i = 1; i <= messages; i++) {
		if (i == vanish_after + 1) {
			printf("%s: vanishing after %d messages, without a goodbye\n", name, vanish_after);
			_exit(3); /* like a crash: the kernel destroys the QP */
		}
		snprintf(text, sizeof(text), "%s %d", name, i);
		send_text(qp, cq, mr, text);
	}
	send_text(qp, cq, mr, "bye");
	printf("%s: sent %d messages and a goodbye\n", name, messages);
	release_all(qp, cq, mr, pd, NULL);
	free(buf);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d device] [-g gid_index] [-p port] [-c peers]                  (server)\n"
		"       %s [-d device] [-g gid_index] [-p port] [-n messages] [-k vanish_after]\n"
		"          -N name host                                                     (client)\n",
		prog, prog);
	exit(2);
}

int main(int argc, char *argv[])
{
	struct options o = { .gid_index = -1, .tcp_port = COURSE_TCP_PORT };
	const char *name = NULL;
	int peers = 3, messages = 30, vanish_after = -1, opt;

	while ((opt = getopt(argc, argv, "d:g:p:c:n:k:N:")) != -1) {
		switch (opt) {
		case 'd': o.device = optarg; break;
		case 'g': o.gid_index = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': o.tcp_port = (int)number("-p", optarg, 1, 65535); break;
		case 'c': peers = (int)number("-c", optarg, 1, MAX_QPS); break;
		case 'n': messages = (int)number("-n", optarg, 0, INT_MAX); break;
		case 'k': vanish_after = (int)number("-k", optarg, 0, INT_MAX - 1); break;
		case 'N': name = optarg; break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc - 1 || (name && (strlen(name) == 0 || strlen(name) > 15)))
		usage(argv[0]);
	o.host = optind < argc ? argv[optind] : NULL;
	if (o.host && !name)
		usage(argv[0]);

	struct ibv_context *ctx = open_device(o.device);

	if (o.host)
		run_client(ctx, &o, name, messages, vanish_after);
	else
		run_server(ctx, o.gid_index, o.tcp_port, peers);
	release_all(NULL, NULL, NULL, NULL, ctx);
	return 0;
}
