#!/usr/bin/env bash
# Integration test of the RDMA Karaf distribution: boots a copy of the unpacked assembly on
# Java 17, waits for the ssh console to run the rdma commands, measures the time until every
# port of the default simulated fabric (etc/*.config: mlx4_0 and mlx4_1, port 1 InfiniBand
# brought up by the subnet manager, port 2 RoCE) is ACTIVE, drives it with the OpenSSH client
# (non-interactive, loopback only), checks the outputs, and stops Karaf, waiting for its JVM to
# exit. Run by Maven in the integration-test phase of karaf-features/assembly:
#
#   bash karaf-it.sh ASSEMBLY_DIR WORK_DIR
#
# ASSEMBLY_DIR is target/assembly (never written to); WORK_DIR (target/karaf-it) receives a
# fresh copy with its own ssh port, the Karaf log and the test transcript (karaf-it.log).
# Every failure exits non-zero after killing Karaf. The whole run is bounded by
# KARAF_IT_TIMEOUT seconds (default 600); booting to a working shell by KARAF_IT_BOOT_TIMEOUT
# (default 180); boot to all default ports ACTIVE by KARAF_IT_ACTIVE_TIMEOUT (default 120, from
# the start of Karaf; the target of under 10 s is reported, not asserted). KARAF_IT_SSH_PORT forces the ssh port (default: the first free one from 8101).
set -euo pipefail

# ---------------------------------------------------------------- outer bound
# Re-run under timeout(1): on expiry it sends SIGTERM, the trap below then kills Karaf.
if [ -z "${KARAF_IT_BOUNDED:-}" ]; then
    export KARAF_IT_BOUNDED=1
    exec timeout --kill-after=30 "${KARAF_IT_TIMEOUT:-600}" bash "$0" "$@"
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
kssh() {
    SSH_ASKPASS="$WORK/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=:0 \
        timeout 60 ssh -n -F /dev/null -p "$SSH_PORT" \
        -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
        -o LogLevel=ERROR -o ConnectTimeout=5 -o BatchMode=no \
        -o PubkeyAuthentication=no -o PreferredAuthentications=password,keyboard-interactive \
        -o NumberOfPasswordPrompts=1 \
        karaf@127.0.0.1 "$1" 2>&1 \
        | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' -e '/^Connection to .* closed by remote host\.$/d'
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
for f in rdma-core rdma-rvt rdma-fabric rdma-mlx4sim rdma-mad rdma-sm; do
    grep -qE "^$f[[:space:]│|]" <<<"$OUT" || die "$f is not an installed feature: $OUT"
done
log "feature:list -i: rdma-core, rdma-mlx4sim (with rdma-rvt, rdma-fabric), rdma-mad, rdma-sm installed"

run "bundle:list -s -t 0 --no-format"
for b in org.rdma.verbs.api org.rdma.core org.rdma.shell org.rdma.karaf org.rdma.rvt org.rdma.fabric \
        org.rdma.hca.mlx4sim org.rdma.mad org.rdma.sm; do
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
run "rdma:clients"
expect "ID  NAME  SERVICE.ID  DEVICES"
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

# ---------------------------------------------------------------- install/uninstall cycles
# One warm-up cycle above (driver-unload/load); then the baseline. The cycles install and
# uninstall rdma-rxe (org.rdma.hca.rxe on the booted rdma-rvt; no rxe device is configured):
# rdma-fabric, the old cycle's feature, is now a dependency of the booted rdma-mlx4sim.
bundles0=$(bundle_count)
threads0=$(thread_count)
[ "${bundles0:-0}" -gt 0 ] || die "bundle:list shows no bundles"
[ "${threads0:-0}" -gt 0 ] || die "shell:threads --list shows no threads"
log "baseline: $bundles0 bundles, $threads0 threads (ssh session pools not counted)"
t1=$(now_ms)
for i in $(seq 1 "$CYCLES"); do
    run "feature:install rdma-rxe"
    run "feature:uninstall rdma-rxe"
done
cycle_ms=$(( ($(now_ms) - t1) / CYCLES ))
bundles1=$(bundle_count)
threads1=$(thread_count)
log "after $CYCLES x feature:install/uninstall rdma-rxe: $bundles1 bundles, $threads1 threads (${cycle_ms} ms per cycle)"
[ "$bundles1" -eq "$bundles0" ] || die "bundle count $bundles1 differs from the baseline $bundles0"
[ "$threads1" -le $((threads0 + THREAD_SLACK)) ] || die "live threads grew from $threads0 to $threads1"
run "feature:list -i"
grep -qE '^rdma-rxe[[:space:]│|]' <<<"$OUT" && die "rdma-rxe still installed after uninstall"
grep -qE '^rdma-mlx4sim[[:space:]│|]' <<<"$OUT" || die "rdma-mlx4sim was uninstalled with rdma-rxe"

# ---------------------------------------------------------------- stop
log "stopping Karaf (bin/stop)"
t2=$(now_ms)
JAVA_HOME=$JAVA17 "$KARAF_HOME/bin/stop" >>"$TRANSCRIPT" 2>&1 || die "bin/stop failed"
for _ in $(seq 1 300); do karaf_alive || break; sleep 0.2; done
karaf_alive && die "the Karaf JVM is still running 60 s after bin/stop"
KARAF_PGID=
log "Karaf stopped; JVM gone after $(( $(now_ms) - t2 )) ms"
log "OK: boot ${boot_ms} ms, all default ports ACTIVE ${active_ms} ms, $CYCLES install/uninstall cycles, bundles $bundles0 -> $bundles1, threads $threads0 -> $threads1"
