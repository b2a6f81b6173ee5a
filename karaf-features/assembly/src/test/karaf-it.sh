#!/usr/bin/env bash
# Integration test of the RDMA Karaf distribution: boots a copy of the unpacked assembly on
# Java 17, waits for the ssh console to run the rdma commands, measures the time until every
# port of the default simulated fabric (etc/*.config: mlx4_0 and mlx4_1, port 1 InfiniBand
# brought up by the subnet manager, port 2 RoCE) is ACTIVE, drives it with the OpenSSH client
# (non-interactive, loopback only), checks the outputs, stops Karaf, waiting for its JVM to
# exit, and fails if karaf.log shows anything a client left behind (the core reaping objects,
# EBUSY). Run by Maven in the integration-test phase of karaf-features/assembly:
#
#   bash karaf-it.sh ASSEMBLY_DIR WORK_DIR
#
# ASSEMBLY_DIR is target/assembly (never written to); WORK_DIR (target/karaf-it) receives a
# fresh copy with its own ssh port, the Karaf log and the test transcript (karaf-it.log).
# Every failure exits non-zero after killing Karaf. The whole run is bounded by
# KARAF_IT_TIMEOUT seconds (default 900); booting to a working shell by KARAF_IT_BOOT_TIMEOUT
# (default 180); boot to all default ports ACTIVE by KARAF_IT_ACTIVE_TIMEOUT (default 120, from
# the start of Karaf; the target of under 10 s is reported, not asserted). KARAF_IT_SSH_PORT forces the ssh port (default: the first free one from 8101).
set -euo pipefail

# ---------------------------------------------------------------- outer bound
# Re-run under timeout(1): on expiry it sends SIGTERM, the trap below then kills Karaf.
if [ -z "${KARAF_IT_BOUNDED:-}" ]; then
    export KARAF_IT_BOUNDED=1
    exec timeout --kill-after=30 "${KARAF_IT_TIMEOUT:-900}" bash "$0" "$@"
fi

[ $# -eq 2 ] || { echo "usage: karaf-it.sh ASSEMBLY_DIR WORK_DIR" >&2; exit 2; }
ASSEMBLY=$(cd "$1" && pwd)
WORK=$2
BOOT_TIMEOUT=${KARAF_IT_BOOT_TIMEOUT:-180}
ACTIVE_TIMEOUT=${KARAF_IT_ACTIVE_TIMEOUT:-120}
# The ports of the default fabric (etc/org.rdma.hca.mlx4sim-{a,b}.config).
DEFAULT_PORTS="mlx4_0/1 mlx4_0/2 mlx4_1/1 mlx4_1/2"
CYCLES=20
# Threads may differ by a few between two samples (Karaf's resolver and Event Admin pools); a
# leak of one thread per install/uninstall cycle shows as +CYCLES.
THREAD_SLACK=4

KARAF_PGID=
KARAF_HOME=
TRANSCRIPT=

log() { echo "[karaf-it] $*" | tee -a "$TRANSCRIPT" >&2; }

now_ms() { date +%s%3N; }

die() {
    log "FAILED: $*"
    exit 1
}

# ---------------------------------------------------------------- clean-up (any exit)
karaf_alive() { [ -n "$KARAF_PGID" ] && kill -0 -- "-$KARAF_PGID" 2>/dev/null; }

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if karaf_alive; then
        log "killing Karaf (process group $KARAF_PGID)"
        kill -TERM -- "-$KARAF_PGID" 2>/dev/null || true
        for _ in $(seq 1 50); do karaf_alive || break; sleep 0.2; done
        kill -KILL -- "-$KARAF_PGID" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -n "$KARAF_HOME" ]; then
        echo "---- last lines of $KARAF_HOME/data/log/karaf.log" >&2
        tail -n 40 "$KARAF_HOME/data/log/karaf.log" >&2 2>/dev/null || true
        echo "---- console output ($WORK/karaf.out)" >&2
        tail -n 20 "$WORK/karaf.out" >&2 2>/dev/null || true
        echo "[karaf-it] FAILED (status $status); transcript: $TRANSCRIPT" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted (outer timeout or signal)"; exit 124' INT TERM

# ---------------------------------------------------------------- Java 17
java_major() {
    "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}

find_java17() {
    local candidates=()
    [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
    if command -v java >/dev/null 2>&1; then
        candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
    fi
    candidates+=(/usr/lib/jvm/java-17-openjdk-* /usr/lib/jvm/*17*)
    local home
    for home in "${candidates[@]}"; do
        if [ -x "$home/bin/java" ] && [ "$(java_major "$home/bin/java")" = 17 ]; then
            echo "$home"
            return 0
        fi
    done
    return 1
}

# ---------------------------------------------------------------- ssh client
free_port() {
    local p
    for p in $(seq 8101 8199); do
        if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# kssh CMD: runs CMD in the Karaf console; prints its output (stdout and stderr, without
# colours and without the ssh client's notice that Karaf closed the connection, which it does
# after every command) and returns its status (255: no ssh connection).
# When Karaf closes first, ssh may fail to send its own disconnect ("client_loop: send
# disconnect: Broken pipe", status 255) after the whole output arrived: that is not a failure.
kssh() {
    local status=0 pipe=$WORK/kssh-pipe.$BASHPID.$RANDOM
    SSH_ASKPASS="$WORK/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=:0 \
        timeout "${2:-60}" ssh -n -F /dev/null -p "$SSH_PORT" \
        -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
        -o LogLevel=ERROR -o ConnectTimeout=5 -o BatchMode=no \
        -o PubkeyAuthentication=no -o PreferredAuthentications=password,keyboard-interactive \
        -o NumberOfPasswordPrompts=1 \
        karaf@127.0.0.1 "$1" 2>&1 \
        | sed -u -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' -e '/^Connection to .* closed by remote host\.$/d' \
            -e '/^client_loop: send disconnect: Broken pipe$/{w '"$pipe" -e 'd}' || status=$?
    if [ "$status" -eq 255 ] && [ -s "$pipe" ]; then
        status=0
    fi
    rm -f "$pipe"
    return "$status"
}

# run CMD: runs CMD, which must succeed; its output is in $OUT and the transcript.
OUT=
run() {
    local status=0
    OUT=$(kssh "$1") || status=$?
    { echo "karaf@rdma> $1"; echo "$OUT"; echo "(exit $status)"; } >>"$TRANSCRIPT"
    [ "$status" -eq 0 ] || die "'$1' exited with $status: $OUT"
    if grep -qE 'Command not found|Error executing command' <<<"$OUT"; then
        die "'$1' failed: $OUT"
    fi
}

# expect TEXT: $OUT of the last command contains TEXT (a fixed string).
expect() {
    grep -qF -- "$1" <<<"$OUT" || die "output lacks '$1'; it was:
$OUT"
}

# bundle_count / thread_count: print the number, or nothing if the output has none.
bundle_count() {
    run "bundle:list -t 0 --no-format"
    grep -cE '^ *[0-9]+[[:space:]]' <<<"$OUT" || true
}

# Live threads from shell:threads, without the ssh sessions' own: every Karaf shell session
# has a cached executor (session-N-thread-M) whose idle threads linger for 60 s after the
# session ends, so counting them would measure how many ssh commands ran in the last minute.
thread_count() {
    run "shell:threads --list"
    awk -F'|' '$1 ~ /^ *[0-9]+ *$/ { gsub(/^ +| +$/, "", $2); print $2 }' <<<"$OUT" \
        | grep -cvE '^session-[0-9]+-thread-[0-9]+$' || true
}

# inactive_ports LINK_OUTPUT: prints the default ports that rdma:link does not show ACTIVE
# ("link mlx4_0/1 subnet_prefix ... lid 3 sm_lid 1 lmc 0 state ACTIVE ..." for InfiniBand,
# "link mlx4_0/2 state ACTIVE ... netdev eth2" for RoCE).
inactive_ports() {
    local p missing=
    for p in $DEFAULT_PORTS; do
        grep -qE "^link $p( .*)? state ACTIVE( |\$)" <<<"$1" || missing="$missing $p"
    done
    echo "${missing# }"
}

# wait_ports_active SINCE_MS TIMEOUT_S WHAT: polls rdma:link (every 0.2 s) until every default
# port is ACTIVE; sets ACTIVE_MS to the time since SINCE_MS, or fails after TIMEOUT_S seconds
# (counted from SINCE_MS) naming the ports that are not ACTIVE.
ACTIVE_MS=
wait_ports_active() {
    local since=$1 limit=$(( $1 + $2 * 1000 )) what=$3 out missing=unknown polls=0
    while :; do
        polls=$((polls + 1))
        out=$(kssh "rdma:link") || true
        missing=$(inactive_ports "$out")
        [ -z "$missing" ] && break
        [ "$(now_ms)" -lt "$limit" ] || {
            { echo "karaf@rdma> rdma:link"; echo "$out"; } >>"$TRANSCRIPT"
            die "$what: not every default port ACTIVE after $2 s ($polls polls); not ACTIVE: $missing; rdma:link printed:
$out"
        }
        sleep 0.2
    done
    ACTIVE_MS=$(( $(now_ms) - since ))
    { echo "karaf@rdma> rdma:link"; echo "$out"; echo "(exit 0)"; } >>"$TRANSCRIPT"
}

# ---------------------------------------------------------------- prepare
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TRANSCRIPT=$WORK/karaf-it.log
: >"$TRANSCRIPT"

command -v ssh >/dev/null 2>&1 || die "the OpenSSH client (ssh) is missing: apt-get install openssh-client"
JAVA17=$(find_java17) || die "no Java 17 found (JAVA_HOME, PATH, /usr/lib/jvm); Karaf 4.4 does not start on newer Java"
SSH_PORT=${KARAF_IT_SSH_PORT:-$(free_port)} || die "no free port in 8101-8199 for the ssh console"
[ -x "$ASSEMBLY/bin/karaf" ] || die "no Karaf distribution in $ASSEMBLY (build karaf-features/assembly first)"

KARAF_HOME=$WORK/karaf
cp -a "$ASSEMBLY" "$KARAF_HOME"
rm -rf "$KARAF_HOME/data/cache" "$KARAF_HOME/data/log" "$KARAF_HOME/data/tmp"/*
sed -i "s/^sshPort *=.*/sshPort = $SSH_PORT/" "$KARAF_HOME/etc/org.apache.karaf.shell.cfg"
grep -q '^sshHost = 127.0.0.1$' "$KARAF_HOME/etc/org.apache.karaf.shell.cfg" || die "ssh is not bound to 127.0.0.1"
# Self-contained: no remote Maven repositories and an empty local one, so every bundle must
# come from the distribution's system/ folder. (Later keys win in a properties file.)
mkdir -p "$WORK/empty-m2"
{
    echo
    echo "# karaf-it: the distribution must be self-contained"
    echo "org.ops4j.pax.url.mvn.repositories="
    echo "org.ops4j.pax.url.mvn.localRepository=$WORK/empty-m2"
} >>"$KARAF_HOME/etc/org.ops4j.pax.url.mvn.cfg"
printf '#!/bin/sh\necho karaf\n' >"$WORK/askpass"
chmod 700 "$WORK/askpass"

log "Java 17: $JAVA17"
log "Karaf: $KARAF_HOME, ssh on 127.0.0.1:$SSH_PORT"

# ---------------------------------------------------------------- boot
t0=$(now_ms)
# Its own session and process group, so that clean-up reaches the script and the JVM.
JAVA_HOME=$JAVA17 setsid "$KARAF_HOME/bin/karaf" server </dev/null >"$WORK/karaf.out" 2>&1 &
KARAF_PGID=$!

log "waiting for the console (at most ${BOOT_TIMEOUT}s)"
deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
tries=0
while :; do
    karaf_alive || die "Karaf exited during boot"
    tries=$((tries + 1))
    if out=$(kssh "rdma:clients") && grep -qF "failed providers and clients:" <<<"$out"; then
        break
    fi
    [ "$(date +%s)" -lt "$deadline" ] || die "no working ssh console with rdma:clients after ${BOOT_TIMEOUT}s ($tries tries); last answer: ${out:-none (no ssh connection)}"
    sleep 0.5
done
boot_ms=$(( $(now_ms) - t0 ))
log "boot to a working shell: ${boot_ms} ms ($tries polls)"

# ---------------------------------------------------------------- the default fabric
# Boot features rdma-mlx4sim, rdma-mad and rdma-sm with etc/*.config (the embedded runtime's):
# fabric "default", host-a and host-b (mlx4_0, mlx4_1), the subnet manager on host-a port 1.
wait_ports_active "$t0" "$ACTIVE_TIMEOUT" "boot"
active_ms=$ACTIVE_MS
log "boot to all default ports ACTIVE: ${active_ms} ms (target < 10000 ms, reported only)"

# ---------------------------------------------------------------- the distribution
run "feature:list -i"
for f in rdma-core rdma-rvt rdma-fabric rdma-mlx4sim rdma-mad rdma-sm rdma-diags rdma-cm; do
    grep -qE "^$f[[:space:]│|]" <<<"$OUT" || die "$f is not an installed feature: $OUT"
done
log "feature:list -i: rdma-core, rdma-mlx4sim (with rdma-rvt, rdma-fabric), rdma-mad, rdma-sm installed"

run "bundle:list -s -t 0 --no-format"
for b in org.rdma.verbs.api org.rdma.core org.rdma.shell org.rdma.karaf org.rdma.rvt org.rdma.fabric \
        org.rdma.hca.mlx4sim org.rdma.mad org.rdma.sm org.rdma.diags org.rdma.cm; do
    grep -qE "Active.*[[:space:]]$b([[:space:]]|\$)" <<<"$OUT" || die "bundle $b is not Active: $OUT"
done
log "rdma bundles active"

# ---------------------------------------------------------------- the rdma commands
# check_default_devices: rdma:dev and rdma:res show host-a and host-b as mlx4_0 and mlx4_1.
check_default_devices() {
    run "rdma:dev"
    [ "$(grep -cE '^[0-9]+: mlx4_[01]: node_type ca ' <<<"$OUT")" -eq 2 ] || die "rdma:dev does not show mlx4_0 and mlx4_1: $OUT"
    expect "node_guid 0002:c903:0000:0a00"
    expect "node_guid 0002:c903:0000:0b00"
    run "rdma:res"
    [ "$(grep -cE '^[0-9]+: mlx4_[01]: pd ' <<<"$OUT")" -eq 2 ] || die "rdma:res does not show mlx4_0 and mlx4_1: $OUT"
}
check_default_devices
log "rdma:dev, rdma:res: mlx4_0 and mlx4_1 (host-a, host-b)"

run "ibv_rc_pingpong -d mlx4_0 -i 1 --peer-device mlx4_1 -i 1 -n 200 -s 4096"
expect "200 iters in"
log "ibv_rc_pingpong mlx4_0/1 <-> mlx4_1/1 through sw0: $(grep -F 'iters in' <<<"$OUT" | head -n 1)"
run "ibnetdiscover"
expect 'Switch	8 "S-0002c90300000100"'
expect '"host-a mlx4_'
run "ibstat"
expect "Link layer: InfiniBand"
expect "Link layer: Ethernet"
log "ibnetdiscover: sw0 with host-a and host-b; ibstat: both HCAs"
run "rdma:rping --loopback -a 192.168.10.1 -I 192.168.10.2 -C 200 -V"
expect "rping: 200 pings of 64 bytes to 192.168.10.1:7174 in"
expect ", 200 validated"
run "rdma:res"
[ "$(grep -cE ' cm_id 0 ' <<<"$OUT")" -eq 2 ] || die "CM ids left after rping: $OUT"
log "rdma:rping --loopback over RoCE (RDMA CM): 200 pings validated, no cm_id left"
# Over InfiniBand the RDMA CM resolves the route with a PathRecord query through the SA client,
# whose address handle of the SM stays cached on the MAD layer's PD until the client is removed;
# ucmatose connects through the IB CM; saquery asks the SA through the user-MAD API. What they
# leave is checked in karaf.log after the stop.
run "rdma:rping --loopback -f gid -a fe80::2:c903:0:a01 -I fe80::2:c903:0:b01 -C 200 -V"
expect ", 200 validated"
run "rdma:ucmatose --loopback -f gid -s fe80::2:c903:0:a01 -b fe80::2:c903:0:b01 -c 10 -C 10"
[ "$(grep -c '^return status 0$' <<<"$OUT")" -eq 2 ] || die "ucmatose over InfiniBand did not end with status 0 on both sides: $OUT"
run "saquery"
expect "NodeDescription.........sw0"
log "over InfiniBand: rping (route from the SA), ucmatose (10 IB CM connections), saquery (NodeRecords)"
run "rdma:clients"
grep -qE '^ID +NAME +SERVICE\.ID +DEVICES$' <<<"$OUT" || die "rdma:clients has no header line: $OUT"
expect "failed providers and clients:"
log "rdma:clients: header and failure section present"

# errors carry the errno name and a non-zero status
status=0
out=$(kssh "rdma:dev no_such_device") || status=$?
{ echo "karaf@rdma> rdma:dev no_such_device"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF ENODEV <<<"$out" || die "rdma:dev no_such_device did not report ENODEV: $out"
[ "$status" -ne 0 ] || die "rdma:dev no_such_device exited 0"
log "rdma:dev no_such_device: ENODEV, exit $status"

# ---------------------------------------------------------------- driver load / unload
run "service:list org.rdma.fabric.Fabric"
expect "fabric.name = default"
run "config:meta org.rdma.fabric"
expect "Topology file"
run "rdma:driver-load fabric"
expect "already loaded"
status=0
out=$(kssh "rdma:driver-load no_such_driver") || status=$?
{ echo "karaf@rdma> rdma:driver-load no_such_driver"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF ENOENT <<<"$out" || die "rdma:driver-load no_such_driver did not report ENOENT: $out"
[ "$status" -ne 0 ] || die "rdma:driver-load no_such_driver exited 0"
log "fabric \"default\" up (rdma-fabric already loaded); unknown driver: ENOENT, exit $status"

# The simulated ConnectX-3s of etc/org.rdma.hca.mlx4sim-{a,b}.config unregister, with their
# resources, when their driver (booted) is unloaded, and register again when it is loaded; the
# subnet manager (rdma-sm stays) brings their InfiniBand ports back up at its next sweep.
run "rdma:driver-unload mlx4sim"
expect "unloaded"
run "rdma:dev"
[ -z "$OUT" ] || die "devices left after rdma:driver-unload mlx4sim: $OUT"
run "feature:list -i"
grep -qE '^rdma-(mlx4sim|fabric|rvt)[[:space:]]' <<<"$OUT" && die "driver features left installed: $OUT"
grep -qE '^rdma-sm[[:space:]]' <<<"$OUT" || die "rdma-sm was uninstalled with rdma-mlx4sim: $OUT"
log "rdma:driver-unload mlx4sim: no devices left, rdma-mlx4sim, rdma-fabric, rdma-rvt uninstalled"
t3=$(now_ms)
run "rdma:driver-load mlx4sim"
expect "rdma-mlx4sim"
expect "loaded"
wait_ports_active "$t3" 60 "rdma:driver-load mlx4sim"
check_default_devices
log "rdma:driver-load mlx4sim: mlx4_0 and mlx4_1 back, every port ACTIVE after ${ACTIVE_MS} ms"

# ---------------------------------------------------------------- targetcli (rdma-target)
# LIO's object tree through targetcli's paths, as in the embedded runtime: Config Admin factory
# configurations behind it; clearconfig removes them again. (Its errors, EBUSY for a backstore in
# use among them, are the unit tests' business: karaf.log must show no EBUSY at all.)
IQN=iqn.2026-11.org.rdma:karaf-it
run "targetcli /backstores/ramdisk create r0 16M"
expect "Created ramdisk r0 with size 16M."
run "targetcli /iscsi create $IQN"
expect "Created target $IQN."
run "targetcli /iscsi/$IQN/tpg1/portals delete 0.0.0.0 3260"
run "targetcli /iscsi/$IQN/tpg1/portals create 127.0.0.1 13260"
run "targetcli /iscsi/$IQN/tpg1/luns create /backstores/ramdisk/r0"
expect "Created LUN 0."
run "targetcli ls"
expect "| o- ramdisk ................................................................................................ [Storage Objects: 1]"
expect "o- $IQN "
expect "| o- lun0 ..................................................................................................... [ramdisk/r0]"
expect "o- 127.0.0.1:13260 "
run "targetcli clearconfig confirm=True"
run "targetcli ls"
expect "[Storage Objects: 0]"
expect "[Targets: 0]"
log "targetcli: ramdisk, iSCSI target, portal and LUN made, listed as targetcli lists them, cleared"

# ---------------------------------------------------------------- unload under traffic, 20 cycles
# Each cycle runs ib_write_bw between the RoCE ports of mlx4_0 and mlx4_1 in a second ssh
# session and unloads the mlx4sim driver under it: the run must account for every write it
# posted (none outstanding, the in-flight ones flushed), the ULP clients (mad, sa) must lose
# the devices, and loading the driver again must bring the devices, the clients and every
# port back. rdma:monitor watches the first cycle. After the warm-up cycle above and the 20
# cycles, bundles, threads, the instances of the platform's classes and the live heap (after a
# full GC, through jcmd) are compared with the baseline.

# bg_kssh FILE CMD: runs CMD in its own ssh session in the background, output to FILE; BG_PID.
BG_PID=
bg_kssh() {
    kssh "$2" 180 >"$1" 2>&1 &
    BG_PID=$!
}

# wait_pid PID SECONDS WHAT: waits for a background job to end.
wait_pid() {
    local limit=$(( $(date +%s) + $2 ))
    while kill -0 "$1" 2>/dev/null; do
        [ "$(date +%s)" -lt "$limit" ] || die "$3: still running after $2 s"
        sleep 0.2
    done
    wait "$1" 2>/dev/null || true
}

# client_devices NAME: the DEVICES column of client NAME in the last rdma:clients ("-" if none).
client_devices() {
    awk -v n="$1" '$2 == n { print ($4 == "" ? "-" : $4) }' <<<"$OUT"
}

KARAF_PID=
karaf_jvm_pid() {
    [ -n "$KARAF_PID" ] || KARAF_PID=$(pgrep -g "$KARAF_PGID" -f 'org.apache.karaf.main.Main' | head -n 1)
    echo "$KARAF_PID"
}

# live_heap_kb: the JVM's used heap after a full GC, in KiB (jcmd GC.run, GC.heap_info).
live_heap_kb() {
    "$JAVA17/bin/jcmd" "$(karaf_jvm_pid)" GC.run >/dev/null || die "jcmd GC.run failed"
    "$JAVA17/bin/jcmd" "$(karaf_jvm_pid)" GC.heap_info | sed -n 's/.* used \([0-9]*\)K.*/\1/p' | head -n 1
}

# instances FILE: "class count" per org.rdma class from a class histogram (after a full GC);
# a class loaded by two bundle revisions appears twice, so a leaked revision shows.
instances() {
    "$JAVA17/bin/jcmd" "$(karaf_jvm_pid)" GC.class_histogram \
        | awk '$4 ~ /^org\.rdma\./ { print $4, $2 }' | sort >"$1"
}

# wait_rc_rts SECONDS WHAT: polls rdma:res qp until mlx4_0 and mlx4_1 each have an RC QP in RTS.
wait_rc_rts() {
    local limit=$(( $(date +%s) + $1 )) out
    while :; do
        out=$(kssh "rdma:res qp") || true
        if grep -qE '^link mlx4_0/2 .*type RC state RTS' <<<"$out" && grep -qE '^link mlx4_1/2 .*type RC state RTS' <<<"$out"; then
            return 0
        fi
        [ "$(date +%s)" -lt "$limit" ] || die "$2: no RC QP in RTS on mlx4_0/2 and mlx4_1/2 after $1 s; rdma:res qp printed:
$out"
        sleep 0.2
    done
}

check_bw_flushed() {
    grep -qE '(EIO: Failed status .*|E[A-Z]+: Couldn.t post send: .*); [0-9]+ writes completed, [0-9]+ completed in error( WR_FLUSH_ERR [0-9]+)?, none outstanding' "$1" \
        || die "cycle $2: ib_write_bw did not account for every write after the unload; it printed:
$(cat "$1")"
}

unload_under_traffic() {
    local i=$1 bw=$WORK/bw-$1.out bw_pid t
    bg_kssh "$bw" "ib_write_bw -d mlx4_0 -i 2 --peer-device mlx4_1 -i 2 -D 120 -s 4096"
    bw_pid=$BG_PID
    # Karaf sends an ssh exec command's output when it ends: the run is seen through
    # rdma:res instead, its RC QPs in RTS on both devices; it then writes without pause.
    wait_rc_rts 60 "cycle $i: ib_write_bw"
    run "rdma:driver-unload mlx4sim"
    expect "unloaded"
    wait_pid "$bw_pid" 60 "cycle $i: ib_write_bw after rdma:driver-unload"
    { echo "karaf@rdma> ib_write_bw ... (cycle $i, background)"; cat "$bw"; } >>"$TRANSCRIPT"
    check_bw_flushed "$bw" "$i"
    grep -qE '; [1-9][0-9]* writes completed' "$bw" || die "cycle $i: no write completed before the unload: $(cat "$bw")"
    run "rdma:dev"
    [ -z "$OUT" ] || die "cycle $i: devices left after rdma:driver-unload mlx4sim: $OUT"
    run "rdma:clients"
    for c in mad sa; do
        [ "$(client_devices "$c")" = "-" ] || die "cycle $i: client $c still has devices: $OUT"
    done
    t=$(now_ms)
    run "rdma:driver-load mlx4sim"
    expect "loaded"
    wait_ports_active "$t" 60 "cycle $i: rdma:driver-load mlx4sim"
    run "rdma:clients"
    for c in mad sa; do
        [ "$(client_devices "$c")" = "mlx4_0,mlx4_1" ] || die "cycle $i: client $c was not added to mlx4_0 and mlx4_1: $OUT"
    done
    FLUSHED_LINE=$(grep -oE '[0-9]+ writes completed, .*' "$bw")
}

bundles0=$(bundle_count)
threads0=$(thread_count)
[ "${bundles0:-0}" -gt 0 ] || die "bundle:list shows no bundles"
[ "${threads0:-0}" -gt 0 ] || die "shell:threads --list shows no threads"
heap0=$(live_heap_kb)
[ -n "$heap0" ] || die "jcmd GC.heap_info gave no used heap"
instances "$WORK/instances-0.txt"
run "rdma:res"
res0=$OUT
log "baseline: $bundles0 bundles, $threads0 threads (ssh session pools not counted), live heap ${heap0} KiB, $(wc -l <"$WORK/instances-0.txt") org.rdma classes with instances"

# Cycle 1 under rdma:monitor.
mon=$WORK/monitor.out
bg_kssh "$mon" "rdma:monitor -w 30"
mon_pid=$BG_PID
# Its Event Admin handler is registered once the ssh session runs the command.
limit=$(( $(date +%s) + 30 ))
until kssh "service:list org.osgi.service.event.EventHandler" | grep -qF 'org/rdma/nldev/*'; do
    [ "$(date +%s)" -lt "$limit" ] || die "rdma:monitor registered no event handler within 30 s"
    sleep 0.2
done
t1=$(now_ms)
unload_under_traffic 1
log "cycle 1: ib_write_bw under rdma:driver-unload: $FLUSHED_LINE"
wait_pid "$mon_pid" 60 "rdma:monitor -w 30"
{ echo "karaf@rdma> rdma:monitor -w 30 (background)"; cat "$mon"; } >>"$TRANSCRIPT"
for line in '^\[UNREGISTER\]	dev [0-9]+ mlx4_0$' '^\[UNREGISTER\]	dev [0-9]+ mlx4_1$' \
        '^\[CLIENT_REMOVE\]	dev [0-9]+ mlx4_0 client mad$' '^\[CLIENT_REMOVE\]	dev [0-9]+ mlx4_1 client sa$' \
        '^\[REGISTER\]	dev [0-9]+ mlx4_0$' '^\[REGISTER\]	dev [0-9]+ mlx4_1$' \
        '^\[CLIENT_ADD\]	dev [0-9]+ mlx4_0 client mad$' '^\[CLIENT_ADD\]	dev [0-9]+ mlx4_1 client sa$' \
        '^\[PORT_ACTIVE\]	dev [0-9]+ mlx4_0 port 1$'; do
    grep -qE "$line" "$mon" || die "rdma:monitor did not show '$line'; it printed:
$(cat "$mon")"
done
log "rdma:monitor: UNREGISTER, CLIENT_REMOVE, REGISTER, CLIENT_ADD and PORT_ACTIVE seen"
for i in $(seq 2 "$CYCLES"); do
    unload_under_traffic "$i"
done
cycle_ms=$(( ($(now_ms) - t1) / CYCLES ))
log "after $CYCLES unload-under-traffic/load cycles (${cycle_ms} ms per cycle); last: $FLUSHED_LINE"

bundles1=$(bundle_count)
threads1=$(thread_count)
heap1=$(live_heap_kb)
instances "$WORK/instances-1.txt"
run "rdma:res"
res1=$OUT
log "after: $bundles1 bundles, $threads1 threads, live heap ${heap1} KiB (baseline ${heap0} KiB)"
[ "$bundles1" -eq "$bundles0" ] || die "bundle count $bundles1 differs from the baseline $bundles0"
[ "$threads1" -le $((threads0 + THREAD_SLACK)) ] || die "live threads grew from $threads0 to $threads1"
# Same resources per device (the MAD layer's QPs, CQs, PDs, MRs) as before the cycles.
[ "$(sed -E 's/^[0-9]+: //' <<<"$res1")" = "$(sed -E 's/^[0-9]+: //' <<<"$res0")" ] \
    || die "rdma:res differs from the baseline:
before: $res0
after:  $res1"
# Instances: no old bundle revision kept any object (its classes would be listed twice), and no
# class of the platform grew by one object per cycle (a few objects come and go: the last
# exception a session keeps, caches). Lambdas are left out: their class names differ per
# bundle revision; so is the per-thread upcall queue (one per thread that ran the transport:
# each ssh session that ran ib_write_bw has one until its idle thread ends).
NOT_COUNTED='\$\$Lambda|^org\.rdma\.verbs\.spi\.Upcalls '
grown=$(join -a 2 -e 0 -o 0,1.2,2.2 <(grep -vE "$NOT_COUNTED" "$WORK/instances-0.txt" | sort -u -k1,1) \
    <(grep -vE "$NOT_COUNTED" "$WORK/instances-1.txt" | awk '{ n[$1] += $2 } END { for (c in n) print c, n[c] }' | sort) \
    | awk -v slack=$((CYCLES / 2)) '$3 > $2 + slack { print }')
[ -z "$grown" ] || die "instances grew (class, before, after):
$grown"
dups=$(awk '{ print $1 }' "$WORK/instances-1.txt" | uniq -d)
[ -z "$dups" ] || die "classes loaded by more than one bundle revision still have instances: $dups"
# The live heap comes back: within 10% of the baseline plus 8 MiB (class metadata of the
# reloaded bundles is off-heap; what remains are JIT and Karaf caches of bounded size).
[ "$heap1" -le $(( heap0 + heap0 / 10 + 8192 )) ] || die "live heap grew from ${heap0} KiB to ${heap1} KiB"
log "no leak: bundles $bundles0 -> $bundles1, threads $threads0 -> $threads1, live heap ${heap0} -> ${heap1} KiB, org.rdma instances not grown"

# rdma:link-add makes a Soft-RoCE device on lo through Config Admin (rdma link add rxe0 type rxe
# netdev lo), installing rdma-rxe first as the kernel's request_module() loads rdma_rxe;
# rdma:link-del removes it; the feature uninstalls.
run "rdma:driver-list"
grep -qE '^rxe +available$' <<<"$OUT" || die "rdma:driver-list does not show rxe available: $OUT"
run "rdma:link-add rxe0 type rxe netdev lo"
run "rdma:dev rxe0"
grep -qE '^[0-9]+: rxe0: node_type ca ' <<<"$OUT" || die "rdma:link-add did not make rxe0: $OUT"
run "rdma:link rxe0/1"
expect "netdev lo"
run "rdma:driver-list"
grep -qE '^rxe +loaded$' <<<"$OUT" || die "rdma:link-add did not load rxe: $OUT"
status=0
out=$(kssh "rdma:link-add rxe1 type nosuch netdev lo") || status=$?
{ echo "karaf@rdma> rdma:link-add rxe1 type nosuch netdev lo"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF EOPNOTSUPP <<<"$out" || die "rdma:link-add of an unknown type did not report EOPNOTSUPP: $out"
status=0
out=$(kssh "rdma:link-add rxe1 type rxe netdev lo udp_prot 4792") || status=$?
{ echo "karaf@rdma> rdma:link-add rxe1 type rxe netdev lo udp_prot 4792"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF "EINVAL: unknown attribute 'udp_prot'" <<<"$out" || die "rdma:link-add with an unknown key did not report EINVAL: $out"
run "rdma:link-del rxe0"
run "rdma:dev"
grep -qF rxe0 <<<"$OUT" && die "rxe0 left after rdma:link-del: $OUT"
log "rdma:link-add rxe0 type rxe netdev lo: rdma-rxe installed, rxe0 registered on lo; rdma:link-del rxe0: gone; unknown type: EOPNOTSUPP; unknown key: EINVAL"
run "feature:uninstall rdma-rxe"
run "feature:list -i"
grep -qE '^rdma-rxe[[:space:]│|]' <<<"$OUT" && die "rdma-rxe still installed after uninstall"
grep -qE '^rdma-mlx4sim[[:space:]│|]' <<<"$OUT" || die "rdma-mlx4sim was uninstalled with rdma-rxe"
[ "$(bundle_count)" -eq "$bundles0" ] || die "rdma-rxe install/uninstall changed the bundle count"

# ---------------------------------------------------------------- stop
log "stopping Karaf (bin/stop)"
t2=$(now_ms)
JAVA_HOME=$JAVA17 "$KARAF_HOME/bin/stop" >>"$TRANSCRIPT" 2>&1 || die "bin/stop failed"
for _ in $(seq 1 300); do karaf_alive || break; sleep 0.2; done
karaf_alive && die "the Karaf JVM is still running 60 s after bin/stop"
KARAF_PGID=
log "Karaf stopped; JVM gone after $(( $(now_ms) - t2 )) ms"
# Every client released what it held, in remove() on device removal and on the way down: the MAD
# layer's PDs were free when it closed its ports, and the core found nothing to reap.
KARAF_LOG=$KARAF_HOME/data/log/karaf.log
[ -s "$KARAF_LOG" ] || die "no $KARAF_LOG to check"
leftovers=$(grep -E 'left by clients|EBUSY' "$KARAF_LOG" || true)
[ -z "$leftovers" ] || die "karaf.log shows resources that outlived their client:
$leftovers"
log "karaf.log: nothing left by clients, no EBUSY"
log "OK: boot ${boot_ms} ms, all default ports ACTIVE ${active_ms} ms, $CYCLES unload-under-traffic cycles, bundles $bundles0 -> $bundles1, threads $threads0 -> $threads1, live heap ${heap0} -> ${heap1} KiB"
