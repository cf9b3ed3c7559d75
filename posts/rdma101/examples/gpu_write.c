/*
 * gpu_write.c - RDMA 101, lessons 5.1 and 5.3: GPU memory as the source and
 * the target of an RDMA WRITE, and the CUDA ordering around it.
 *
 * Needs an NVIDIA GPU with its driver and an RDMA NIC that can reach GPU
 * memory (GPUDirect RDMA). The course's tests compile it, but it has never
 * been run for the course: no machine the course is built on has a GPU, so
 * no output of it is shown.
 *
 * One process, one RC QP connected to itself (as in lesson 2.5). src and dst
 * are both in GPU memory, registered through dma-buf when the GPU offers it,
 * else through nvidia-peermem. A producer on a CUDA stream fills src; the CPU
 * waits for the stream's event before it posts a WRITE with immediate from
 * src to dst; only when the receive has completed does the CPU enqueue the
 * consumer of dst.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 gpu_write.c course.c -o gpu_write \
 *            -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -libverbs
 * Run:   ./gpu_write [-c CUDA_DEVICE] [-d DEV] [-g GID]
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime.h>
#include <cudaTypedefs.h> /* driver API types; the driver itself is found at run time */

#include "course.h"

#define LEN (1 << 20) /* a multiple of the page size, as dma-buf export requires */

static void check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
		exit(1);
	}
}

/* A driver API function, looked up through the runtime: no link to libcuda. */
static void *driver_fn(const char *name)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult found;

	check(cudaGetDriverEntryPointByVersion(name, &fn, 11070, cudaEnableDefault, &found),
	      "cudaGetDriverEntryPointByVersion");
	if (found != cudaDriverEntryPointSuccess || !fn) {
		fprintf(stderr, "the CUDA driver has no %s\n", name);
		exit(1);
	}
	return fn;
}

/*
 * Register len bytes of GPU memory at ptr with the NIC. The dma-buf path
 * asks CUDA for a dma-buf file descriptor that describes the range and hands
 * it to ibv_reg_dmabuf_mr; the older path gives ibv_reg_mr the GPU virtual
 * address and relies on the nvidia-peermem module, which resolves it through
 * the driver's nvidia_p2p API. The export wants a page-aligned range: this
 * program exports whole cudaMalloc allocations, and says so if it is refused.
 */
static struct ibv_mr *register_gpu(struct ibv_pd *pd, void *ptr, size_t len, int cuda_dev)
{
	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	PFN_cuDeviceGet_v2000 get_device = driver_fn("cuDeviceGet");
	PFN_cuDeviceGetAttribute_v2000 get_attribute = driver_fn("cuDeviceGetAttribute");
	PFN_cuMemGetHandleForAddressRange_v11070 get_handle =
		driver_fn("cuMemGetHandleForAddressRange");
	PFN_cuPointerSetAttribute_v6000 set_pointer_attribute = driver_fn("cuPointerSetAttribute");
	const unsigned int sync_memops = 1;
	CUdevice device;
	CUresult rc;
	int dmabuf = 0, p2p = 0, fd = -1;

	/*
	 * NVIDIA's GPUDirect RDMA guide asks for this on GPU memory pinned for a
	 * peer without P2P tokens, as nvidia-peermem pins it; this program sets it
	 * for the dma-buf path too, which the guide does not cover. Synchronous
	 * CUDA memory operations on any part of the allocation then complete
	 * before they return (lesson 5.3).
	 */
	rc = set_pointer_attribute(&sync_memops, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
				   (CUdeviceptr)(uintptr_t)ptr);
	if (rc != CUDA_SUCCESS) {
		fprintf(stderr, "cuPointerSetAttribute(SYNC_MEMOPS): CUresult %d\n", (int)rc);
		exit(1);
	}
	if (get_device(&device, cuda_dev) != CUDA_SUCCESS ||
	    get_attribute(&dmabuf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, device) != CUDA_SUCCESS)
		dmabuf = 0;
	if (!dmabuf) {
		fprintf(stderr, "CUDA device %d cannot export dma-bufs; trying ibv_reg_mr\n", cuda_dev);
	} else if ((rc = get_handle(&fd, (CUdeviceptr)(uintptr_t)ptr, len,
				    CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0)) != CUDA_SUCCESS) {
		fprintf(stderr, "cuMemGetHandleForAddressRange: CUresult %d; trying ibv_reg_mr\n", (int)rc);
	} else {
		/* Offset 0 in the dma-buf; iova = the GPU address, so rkey users can use it. */
		struct ibv_mr *mr = ibv_reg_dmabuf_mr(pd, 0, len, (uintptr_t)ptr, fd, access);
		int err = errno;

		close(fd); /* the MR holds its own reference to the dma-buf */
		if (mr) {
			printf("registered %zu bytes of GPU memory through dma-buf\n", len);
			return mr;
		}
		fprintf(stderr, "ibv_reg_dmabuf_mr: %s; trying ibv_reg_mr\n", strerror(err));
	}
	/* This attribute reports the nvidia_p2p API that nvidia-peermem is built on. */
	check(cudaDeviceGetAttribute(&p2p, cudaDevAttrGPUDirectRDMASupported, cuda_dev),
	      "cudaDeviceGetAttribute");
	if (!p2p) {
		fprintf(stderr, "CUDA device %d has no nvidia_p2p support for ibv_reg_mr either\n", cuda_dev);
		exit(1);
	}
	struct ibv_mr *mr = ibv_reg_mr(pd, ptr, len, access);
	if (!mr)
		die("ibv_reg_mr on GPU memory (without dma-buf it needs nvidia-peermem)");
	printf("registered %zu bytes of GPU memory through ibv_reg_mr (nvidia-peermem)\n", len);
	return mr;
}

/*
 * Sender: the data exists only once the stream has run the producer. The
 * return of cudaMemsetAsync() means the work is queued, nothing more; the
 * event says it has run.
 */
static void produce_then_post(cudaStream_t stream, void *src, void *dst, struct ibv_qp *qp,
			      struct ibv_mr *src_mr, struct ibv_mr *dst_mr)
{
	cudaEvent_t ready;

	check(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreate");
	check(cudaMemsetAsync(src, 0x5a, LEN, stream), "cudaMemsetAsync"); /* the "kernel" */
	check(cudaEventRecord(ready, stream), "cudaEventRecord");
	printf("producer enqueued on the stream; waiting for its event\n");
	check(cudaEventSynchronize(ready), "cudaEventSynchronize"); /* or poll cudaEventQuery */
	check(cudaEventDestroy(ready), "cudaEventDestroy");

	struct ibv_sge sge = { .addr = (uintptr_t)src, .length = LEN, .lkey = src_mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM, .imm_data = htonl(1),
		.send_flags = IBV_SEND_SIGNALED,
		/* The iova, not dst_mr->addr: for a dma-buf MR that holds the offset. */
		.wr.rdma = { .remote_addr = (uintptr_t)dst, .rkey = dst_mr->rkey },
	};
	post_send_or_die(qp, &wr);
	printf("event complete: WRITE with immediate posted\n");
}

/*
 * Receiver: the CPU has seen the receive completion, so the NIC has finished
 * writing dst. CUDA work the CPU submits from now on sees those bytes
 * (NVIDIA's GPUDirect RDMA guide, "Synchronization and Memory Ordering").
 * GPU work queued earlier, or a kernel already running, is ordered only as
 * far as the attribute printed here says; it would need a flush.
 */
static void consume_after_completion(int cuda_dev, cudaStream_t stream, const void *dst,
				     unsigned char *host)
{
	int ordering = 0, options = 0;

	check(cudaDeviceGetAttribute(&ordering, cudaDevAttrGPUDirectRDMAWritesOrdering, cuda_dev),
	      "cudaDeviceGetAttribute");
	check(cudaDeviceGetAttribute(&options, cudaDevAttrGPUDirectRDMAFlushWritesOptions, cuda_dev),
	      "cudaDeviceGetAttribute");
	printf("remote writes without a flush: ordered for %s; cudaDeviceFlushGPUDirectRDMAWrites %s\n",
	       ordering >= cudaGPUDirectRDMAWritesOrderingAllDevices ? "every GPU" :
	       ordering >= cudaGPUDirectRDMAWritesOrderingOwner ? "this GPU" : "no GPU",
	       options & cudaFlushGPUDirectRDMAWritesOptionHost ? "available" : "not available");
	/* Submitted only now, after the completion: the copy reads what the NIC wrote. */
	check(cudaMemcpyAsync(host, dst, LEN, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
	check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
	for (size_t i = 0; i < LEN; i++)
		if (host[i] != 0x5a) {
			printf("byte %zu is 0x%02x, expected 0x5a\n", i, host[i]);
			exit(1);
		}
	printf("consumer saw all %d bytes\n", LEN);
}

int main(int argc, char **argv)
{
	const char *dev = NULL;
	int gid_arg = -1, cuda_dev = 0, opt;

	while ((opt = getopt(argc, argv, "c:d:g:")) != -1) {
		switch (opt) {
		case 'c': cuda_dev = (int)number("-c", optarg, 0, 255); break;
		case 'd': dev = optarg; break;
		case 'g': gid_arg = (int)number("-g", optarg, 0, UINT8_MAX); break;
		default:
			fprintf(stderr, "usage: %s [-c CUDA_DEVICE] [-d DEV] [-g GID]\n", argv[0]);
			return 1;
		}
	}
	check(cudaSetDevice(cuda_dev), "cudaSetDevice");

	struct ibv_context *ctx = open_device(dev);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, gid_arg);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	void *src, *dst;
	unsigned char *host;
	cudaStream_t stream;
	check(cudaMalloc(&src, LEN), "cudaMalloc");
	check(cudaMalloc(&dst, LEN), "cudaMalloc");
	check(cudaMallocHost((void **)&host, LEN), "cudaMallocHost");
	check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
	struct ibv_mr *src_mr = register_gpu(pd, src, LEN, cuda_dev);
	struct ibv_mr *dst_mr = register_gpu(pd, dst, LEN, cuda_dev);

	struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	struct conn_info me;
	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	local_info(qp, COURSE_IB_PORT, gid_index, NULL, &me);
	qp_to_rtr(qp, COURSE_IB_PORT, gid_index, &me, &me); /* connected to itself */
	qp_to_rts(qp, &me, &me);
	struct ibv_recv_wr rwr = { .wr_id = 2, .num_sge = 0 }, *bad_rwr = NULL;
	int rc = ibv_post_recv(qp, &rwr, &bad_rwr);
	if (rc)
		die_rc("ibv_post_recv", rc);

	produce_then_post(stream, src, dst, qp, src_mr, dst_mr);
	struct ibv_wc wc;
	for (int seen = 0; seen < 2; seen++) /* the WRITE's completion and the receive's */
		if (wait_completion(cq, &wc))
			return 1;
	printf("completions seen by the CPU: src may be reused, dst has arrived\n");
	check(cudaMemsetAsync(src, 0, LEN, stream), "cudaMemsetAsync"); /* safe only now */
	consume_after_completion(cuda_dev, stream, dst, host);

	release_all(qp, cq, dst_mr, NULL, NULL);
	if ((rc = ibv_dereg_mr(src_mr))) /* the second region, before its PD */
		die_rc("ibv_dereg_mr", rc);
	release_all(NULL, NULL, NULL, pd, NULL);
	/* GPU memory is freed only once no MR refers to it. */
	check(cudaStreamDestroy(stream), "cudaStreamDestroy");
	check(cudaFreeHost(host), "cudaFreeHost");
	check(cudaFree(dst), "cudaFree");
	check(cudaFree(src), "cudaFree");
	release_all(NULL, NULL, NULL, NULL, ctx);
	return 0;
}
