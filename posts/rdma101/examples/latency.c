/*
 * latency.c - RDMA 101, lesson 4.1.
 *
 * Measures the round-trip time of a SEND/RECV ping-pong between two
 * processes the way a careful benchmark does: it prints the setup it ran
 * on, runs warm-up round trips that it does not count, times every measured
 * round trip on its own, and reports percentiles and the CPU time it spent,
 * not only a mean. The client chooses the message size and the counts; the
 * server echoes every message back, the client's last one included.
 *
 * -e waits for completions on a completion channel instead of polling the CQ
 * in a loop: compare the latency and the CPU time of the two.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 latency.c course.c -o latency -libverbs
 * Run:   ./latency [-e] [-d dev] [-g gid] [-p port]                          (server)
 *        ./latency [-e] [-s bytes] [-n iters] [-w warmup] [...] server_host  (client)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getopt */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define MAX_MSG 4096 /* the largest message; both sides receive into this much */

enum { SEND_DONE = 1, RECV_DONE = 2 };

struct endpoint {
	struct ibv_cq *cq;
	struct ibv_comp_channel *channel; /* NULL: busy polling */
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	char *send_buf, *recv_buf;
	int armed;
	int seen;          /* completions in, not yet waited for */
	uint32_t recv_len; /* the length of the last message received */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double cpu_seconds(int user)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	struct timeval tv = user ? ru.ru_utime : ru.ru_stime;
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void post_recv(struct endpoint *e)
{
	struct ibv_sge sge = { .addr = (uintptr_t)e->recv_buf, .length = MAX_MSG,
			       .lkey = e->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = RECV_DONE, .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(e->qp, &wr, &bad);

	if (rc)
		die_rc("ibv_post_recv", rc);
}

static void post_send(struct endpoint *e, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)e->send_buf, .length = len,
			       .lkey = e->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = SEND_DONE, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	post_send_or_die(e->qp, &wr);
}

/*
 * Wait until the completions named in want (SEND_DONE, RECV_DONE) are in.
 * A completion that arrives before it is wanted (the peer's next message
 * can overtake our own send's completion) is kept for the next call.
 * Returns the length of the received message, if one was wanted. With a
 * channel: arm the CQ, poll once more (a completion may have slipped in
 * before the arming), and only then sleep until the channel reports one.
 */
static uint32_t wait_for(struct endpoint *e, int want)
{
	while ((e->seen & want) != want) {
		struct ibv_wc wc[2];
		int n = ibv_poll_cq(e->cq, 2, wc);

		if (n < 0) {
			fprintf(stderr, "ibv_poll_cq failed\n");
			exit(1);
		}
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "completion failed: %s\n", wc_status_name(wc[i].status));
				exit(1);
			}
			e->seen |= (int)wc[i].wr_id;
			if (wc[i].wr_id == RECV_DONE)
				e->recv_len = wc[i].byte_len;
		}
		if (n > 0 || !e->channel)
			continue;
		if (!e->armed) {
			int rc = ibv_req_notify_cq(e->cq, 0);

			if (rc)
				die_rc("ibv_req_notify_cq", rc);
			e->armed = 1;
			continue;
		}
		struct ibv_cq *cq;
		void *cq_ctx;

		if (ibv_get_cq_event(e->channel, &cq, &cq_ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(cq, 1);
		e->armed = 0;
	}
	e->seen &= ~want;
	return e->recv_len;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Nearest rank: the smallest sample with at least p percent of samples at or
 * below it, the one at rank ceil(p * n / 100). p has one decimal at most
 * (99.9), so the rank is computed in integers, in tenths of a percent.
 */
static double percentile_us(const uint64_t *sorted, int n, double p)
{
	long long tenths = (long long)(p * 10 + 0.5);
	long long rank = (tenths * n + 999) / 1000;

	if (rank < 1)
		rank = 1;
	return (double)sorted[rank - 1] / 1000.0;
}

static void print_setup(struct ibv_context *ctx, int gid, int events)
{
	struct ibv_port_attr pa;
	struct utsname u;
	int rc = ibv_query_port(ctx, COURSE_IB_PORT, &pa);

	if (rc)
		die_rc("ibv_query_port", rc);
	if (uname(&u))
		die("uname");
	printf("setup: %s port %d, active MTU %d, GID index %d, kernel %s, CPUs online: %ld\n",
	       device_name(ctx), COURSE_IB_PORT, 128 << pa.active_mtu, gid, u.release,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("setup: completions by %s\n", events ? "completion channel (sleeping)" : "busy polling");
}

static void client(struct endpoint *e, uint32_t size, int iters, int warmup)
{
	uint64_t *rtt = malloc(sizeof(*rtt) * (size_t)iters);

	if (!rtt)
		die("malloc");
	printf("setup: %" PRIu32 "-byte SEND, echoed back; %d warm-up + %d measured round trips\n",
	       size, warmup, iters);
	uint64_t first = 0, last_warm = 0;

	for (int i = 0; i < warmup; i++) {
		uint64_t t0 = now_ns();

		post_send(e, size);
		wait_for(e, SEND_DONE | RECV_DONE);
		post_recv(e);
		if (i == 0)
			first = now_ns() - t0;
		last_warm = now_ns() - t0;
	}
	if (warmup > 0)
		printf("warm-up: first round trip %.1f us, last %.1f us (not counted)\n",
		       first / 1000.0, last_warm / 1000.0);

	double user0 = cpu_seconds(1), sys0 = cpu_seconds(0);
	uint64_t start = now_ns();

	for (int i = 0; i < iters; i++) {
		uint64_t t0 = now_ns();

		post_send(e, size);
		wait_for(e, SEND_DONE | RECV_DONE);
		rtt[i] = now_ns() - t0;
		post_recv(e); /* for the next reply; the peer replies only after our next SEND */
	}
	double elapsed = (double)(now_ns() - start) / 1e9;
	double user = cpu_seconds(1) - user0, sys = cpu_seconds(0) - sys0;

	/* The last message tells the server to stop; it echoes that one too. */
	e->send_buf[0] = 1;
	post_send(e, size);
	wait_for(e, SEND_DONE | RECV_DONE);

	qsort(rtt, (size_t)iters, sizeof(*rtt), cmp_u64);
	uint64_t sum = 0;

	for (int i = 0; i < iters; i++)
		sum += rtt[i];
	printf("measured: %d round trips in %.3f s\n", iters, elapsed);
	printf("round trip (us): min %.1f, p50 %.1f, p90 %.1f, p99 %.1f, max %.1f, mean %.1f\n",
	       rtt[0] / 1000.0, percentile_us(rtt, iters, 50), percentile_us(rtt, iters, 90),
	       percentile_us(rtt, iters, 99), rtt[iters - 1] / 1000.0,
	       (double)sum / iters / 1000.0);
	if (iters >= 10000)
		printf("round trip (us): p99.9 %.1f\n", percentile_us(rtt, iters, 99.9));
	else
		printf("round trip (us): p99.9 not reported: it needs at least 10000 samples\n");
	printf("half round trip at p50: %.1f us\n", percentile_us(rtt, iters, 50) / 2);
	printf("CPU: user %.2f s + system %.2f s = %.1f%% of the elapsed time, %.1f us per round trip\n",
	       user, sys, 100 * (user + sys) / elapsed, 1e6 * (user + sys) / iters);
	free(rtt);
}

static void server(struct endpoint *e)
{
	double user0 = cpu_seconds(1), sys0 = cpu_seconds(0);
	uint64_t start = now_ns();
	long served = 0;

	for (;;) {
		uint32_t len = wait_for(e, RECV_DONE);
		int last = e->recv_buf[0] == 1;

		memcpy(e->send_buf, e->recv_buf, len); /* the echo */
		post_recv(e); /* before replying: the client's next SEND needs it */
		post_send(e, len);
		wait_for(e, SEND_DONE);
		if (last)
			break;
		served++;
	}
	double elapsed = (double)(now_ns() - start) / 1e9;
	double user = cpu_seconds(1) - user0, sys = cpu_seconds(0) - sys0;

	printf("served %ld round trips and the last message\n", served);
	printf("CPU: user %.2f s + system %.2f s = %.1f%% of the elapsed time\n",
	       user, sys, 100 * (user + sys) / elapsed);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-e] [-d device] [-g gid_index] [-p port]              (server)\n"
		"       %s [-e] [-s bytes] [-n iters] [-w warmup] [...] server_host  (client)\n",
		prog, prog);
	exit(2);
}

int main(int argc, char *argv[])
{
	const char *dev = NULL;
	int gid_req = -1, port = COURSE_TCP_PORT, iters = 1000, warmup = 100, events = 0;
	long size = 64;
	int opt;

	while ((opt = getopt(argc, argv, "ed:g:p:s:n:w:")) != -1) {
		switch (opt) {
		case 'e': events = 1; break;
		case 'd': dev = optarg; break;
		case 'g': gid_req = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': port = (int)number("-p", optarg, 1, 65535); break;
		case 's': size = number("-s", optarg, 2, MAX_MSG); break;
		case 'n': iters = (int)number("-n", optarg, 1, INT_MAX); break;
		case 'w': warmup = (int)number("-w", optarg, 0, INT_MAX); break;
		default: usage(argv[0]);
		}
	}
	if (optind < argc - 1)
		usage(argv[0]);
	const char *host = optind < argc ? argv[optind] : NULL;

	struct ibv_context *ctx = open_device(dev);
	int gid = choose_gid(ctx, COURSE_IB_PORT, gid_req);

	print_setup(ctx, gid, events);

	struct endpoint e = { 0 };
	struct ibv_pd *pd = ibv_alloc_pd(ctx);

	if (!pd)
		die("ibv_alloc_pd");
	e.send_buf = alloc_buffer(2 * MAX_MSG);
	e.recv_buf = e.send_buf + MAX_MSG;
	e.mr = ibv_reg_mr(pd, e.send_buf, 2 * MAX_MSG, IBV_ACCESS_LOCAL_WRITE);
	if (!e.mr)
		die("ibv_reg_mr");
	if (events && !(e.channel = ibv_create_comp_channel(ctx)))
		die("ibv_create_comp_channel");
	/* One CQ for both directions: at most one send and one receive are outstanding. */
	e.cq = ibv_create_cq(ctx, 4, NULL, e.channel, 0);
	if (!e.cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr qa = {
		.send_cq = e.cq, .recv_cq = e.cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	e.qp = ibv_create_qp(pd, &qa);
	if (!e.qp)
		die("ibv_create_qp");
	qp_to_init(e.qp, COURSE_IB_PORT, 0);

	post_recv(&e); /* before connecting: the peer's first message must find it */
	struct conn_info mine, peer;
	int sock = connect_qp(e.qp, COURSE_IB_PORT, gid, NULL, host, port, &mine, &peer);

	printf("connected: local QPN 0x%06" PRIx32 ", remote QPN 0x%06" PRIx32 "\n", mine.qpn, peer.qpn);

	if (host)
		client(&e, (uint32_t)size, iters, warmup);
	else
		server(&e);

	tcp_barrier(sock);
	close(sock);
	release_all(e.qp, e.cq, e.mr, NULL, NULL);
	int rc;

	if (e.channel && (rc = ibv_destroy_comp_channel(e.channel)))
		die_rc("ibv_destroy_comp_channel", rc);
	free(e.send_buf);
	release_all(NULL, NULL, NULL, pd, ctx);
	printf("done\n");
	return 0;
}
