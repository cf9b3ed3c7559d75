#!/bin/sh
# PID 1 of the RDMA 101 lab VM (busybox ash, inside the initramfs built by initramfs.ts).
# Loads the modules in the order /modules.load gives, brings up eth0 and the Soft-RoCE device
# rxe0, mounts the host's root read-only over 9p and chroots into it. The kernel hands the
# settings over as environment variables (the command line's unknown key=value words):
#   lab_mode  shell: a login-less shell on the console; agent: run steps sent over virtio-serial
#   lab_ip    this VM's address on eth0, CIDR (e.g. 169.254.101.1/16)
#   lab_cwd   the repository root (the same path as on the host)
#   lab_bin   the compiled course programs, put first on PATH
#   lab_io    agent mode: a host folder shared read-write, where steps write their output
#   lab_rows, lab_cols, lab_term  shell mode: the host terminal's size and type
HOST=/host

# Both in the initramfs and in the host's root, /bin/busybox is the static busybox the lab needs.
fail() {
	echo "lab-init: $*" >&2
	echo "lab-init: FAILED" >&2
	/bin/busybox reboot -f
}

# What every command sees: the host's root, the repository root as working folder, the course's
# programs first on PATH.
in_host() {
	exec env -i HOME=/tmp TERM="${lab_term:-linux}" LANG=C.UTF-8 \
		PATH="$lab_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
		PS1='[rdma101-lab \W]\$ ' chroot "$HOST" /bin/busybox sh -c 'cd "$1" && shift && exec "$@"' sh "$lab_cwd" "$@"
}

if [ "$1" = --in-host ]; then
	shift
	in_host "$@"
fi

# Agent mode, inside the host's root already (see the end of this file): the host sends "hello
# NONCE", "run ID", "kill ID" or "quit" lines over the virtio-serial port $2; ID.cmd in the output
# folder $3 holds the command line. Each step's output goes to ID.out and its end is reported as
# "exit ID STATUS". "quit" powers the VM off. A step is started with no chroot or shell of its own
# in between: in an emulated VM every program started costs tens of milliseconds.
if [ "$1" = --agent ]; then
	io=$3
	exec 3<>"$2"
	connected=
	while :; do
		# Reading the port gives end-of-file while the host is not connected: before it first says
		# hello, wait and read again; once it has gone (its process ended), power off.
		if ! read -r verb id <&3 && [ -z "$verb" ]; then
			[ -n "$connected" ] && break
			busybox usleep 100000
			continue
		fi
		connected=1
		case "$verb" in
		hello)
			# The host says hello until it hears back: a line written before it connected is lost.
			echo "ready $id" >&3
			;;
		run)
			IFS= read -r line <"$io/$id.cmd"
			(
				busybox setsid stdbuf -oL -eL bash -c "$line" </dev/null >"$io/$id.out" 2>&1 &
				echo $! >"/run/lab-$id.pid"
				wait $!
				echo "exit $id $?" >&3
			) &
			;;
		kill)
			# The step leads its own process group (setsid): kill the group, or the process if the
			# kill came before setsid ran.
			[ -f "/run/lab-$id.pid" ] && read -r pid <"/run/lab-$id.pid" && kill -KILL -- "-$pid" "$pid" 2>/dev/null
			;;
		quit)
			break
			;;
		esac
	done
	busybox reboot -f
fi

export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# Kernel messages go to the log, not to the learner's terminal.
dmesg -n 1

while read -r module; do
	insmod "/modules/$module" || fail "cannot load $module"
done </modules.load

# No IPv6 address from router advertisements (QEMU's user network sends them a few seconds after
# boot): the GID table then holds the same entries however long the VM has been up. The link-local
# address stays. (Booted with ipv6.disable=1, the kernel has no IPv6 to configure.)
[ -d /proc/sys/net/ipv6 ] && for conf in all default eth0; do
	echo 0 >"/proc/sys/net/ipv6/conf/$conf/accept_ra" && echo 0 >"/proc/sys/net/ipv6/conf/$conf/autoconf" ||
		fail "cannot turn off IPv6 autoconfiguration on $conf"
done
ip link set lo up
ip link set eth0 up || fail "no eth0 (virtio-net)"
ip addr add "$lab_ip" dev eth0 || fail "cannot set $lab_ip on eth0"

mkdir -p "$HOST"
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot "$HOST" ||
	fail "cannot mount the host's root over 9p"
mount -t proc proc "$HOST/proc"
mount -t sysfs sysfs "$HOST/sys"
mount -t devtmpfs devtmpfs "$HOST/dev"
mkdir -p "$HOST/dev/pts"
mount -t devpts devpts "$HOST/dev/pts" 2>/dev/null
# /tmp is writable, but still shows the host's (a repository may live there): a tmpfs over it.
mkdir -p /scratch
mount -t tmpfs tmpfs /scratch
mkdir -p /scratch/upper /scratch/work
mount -t overlay overlay -o "lowerdir=$HOST/tmp,upperdir=/scratch/upper,workdir=/scratch/work" "$HOST/tmp" ||
	fail "cannot make /tmp writable (overlay)"
mount -t tmpfs tmpfs "$HOST/run"
if [ -n "$lab_io" ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none labio "$HOST$lab_io" ||
		fail "cannot mount the output folder over 9p"
fi

# One run of the host's rdma tool (loading it over 9p is what costs). netns exclusive: rxe0 stays in
# this network namespace, so a process in a new one (unshare --net) sees no RDMA device.
printf 'link add rxe0 type rxe netdev eth0\nsystem set netns exclusive\n' |
	chroot "$HOST" /usr/bin/env PATH=/usr/sbin:/usr/bin:/sbin:/bin rdma -b - ||
	fail "rdma link add rxe0 (or rdma system set netns exclusive) failed"
state=/sys/class/infiniband/rxe0/ports/1/state
tries=0
until grep -q ACTIVE "$state" 2>/dev/null; do
	tries=$((tries + 1))
	[ "$tries" -gt 200 ] && fail "rxe0 did not become ACTIVE: $(cat "$state" 2>/dev/null)"
	usleep 50000
done

if [ "$lab_mode" = shell ]; then
	[ -n "$lab_rows" ] && stty rows "$lab_rows" cols "$lab_cols" 2>/dev/null
	echo "RDMA 101 lab: rxe0 is ACTIVE on eth0 ($lab_ip). 'exit' powers the VM off."
	setsid -c /init --in-host bash --norc -i
	# QEMU's isa-debug-exit device ends the VM at once and quietly: writing N makes QEMU exit
	# with 2N + 1. N is the shell's status + 1, so that QEMU's own failure (1) stays apart.
	status=$?
	[ "$status" -gt 126 ] && status=126
	printf "\\$(printf %o $((status + 1)))" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	reboot -f
fi

# Agent mode: find the control port, then go on as the agent (above), inside the host's root.
port=
for name in /sys/class/virtio-ports/*/name; do
	[ "$(cat "$name")" = lab.ctl ] && port=/dev/$(basename "$(dirname "$name")")
done
[ -n "$port" ] || fail "no virtio-serial port lab.ctl"
cp /init "$HOST/run/lab-init"
in_host busybox sh /run/lab-init --agent "$port" "$lab_io"
